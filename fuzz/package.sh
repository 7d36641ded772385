#!/usr/bin/env bash
# fuzz/package.sh: builds the fuzz targets once (release, instrumented) and
# puts them with their seed corpora and run.sh in fuzz/dist/kifu-fuzz/ and
# fuzz/dist/kifu-fuzz.tar.gz, to run on another Linux x86_64 machine with no
# Rust toolchain (it needs glibc as new as this machine's, and libstdc++):
#
#   tar xzf kifu-fuzz.tar.gz && cd kifu-fuzz && ./run.sh SECONDS_PER_TARGET JOBS
#
# Findings go to kifu-fuzz/artifacts/TARGET/; bring that folder back.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$("$here/build.sh")
dist=$here/dist/kifu-fuzz
rm -rf "$dist"
mkdir -p "$dist/bin"
for f in "$bin"/read_* "$bin"/roundtrip_* "$bin"/gen_*; do
  if [ -f "$f" ] && [ -x "$f" ]; then cp "$f" "$dist/bin/" && strip --strip-debug "$dist/bin/${f##*/}"; fi
done
"$here/seed.sh" "$dist/seeds" "$dist/bin"
cp "$here/run.sh" "$here/seed.sh" "$dist/"
tar -C "$here/dist" -czf "$here/dist/kifu-fuzz.tar.gz" kifu-fuzz
echo "$here/dist/kifu-fuzz.tar.gz: $(du -h "$here/dist/kifu-fuzz.tar.gz" | cut -f1)"
