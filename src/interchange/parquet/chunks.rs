//! The column chunks of a row group: each column's pages (its values
//! encoded, through a dictionary or `PLAIN`, their definition levels, each
//! page compressed once), written by kifu itself ([`TextChunks`]), and a
//! text column with no dictionary written a page at a time as its values
//! come ([`Paged`]).

use super::*;

/// A data page holds at most this many bytes of values...
pub(super) const PAGE_BYTES: usize = 1 << 20;

/// ... and this many rows (the crate's defaults).
pub(super) const PAGE_ROWS: usize = 20_000;

/// A dictionary holds at most this many bytes of values: a column chunk
/// whose distinct values take more is written `PLAIN` (the crate's limit).
pub(super) const DICTIONARY_BYTES: usize = 1 << 20;

/// The room before a [`Paged`] page's values for its definition levels
/// (their length and their RLE / bit-packing hybrid), so that the page is
/// compressed where it lies, not copied after them: [`PAGE_ROWS`] levels
/// take at most some 5 kB.
const GAP: usize = 8 << 10;

/// A text column with no dictionary (a game's comments, the position
/// after each ply: mostly each row's own), written a page at a time as
/// its values come: its page being filled (each value `PLAIN`, its
/// length and bytes), compressed and added to its column chunk once it
/// holds [`PAGE_ROWS`] rows or its values take [`PAGE_BYTES`], as
/// [`Body::page`] ends the pages of a row group's values written at once.
/// A row group's values were kept whole until it was written: the moves
/// table's comments, up to [`ROW_GROUP_BYTES`] of memory first touched
/// (a page fault each 4 kB), now a page of them and their chunk
/// compressed.
pub(super) struct Paged {
    /// [`GAP`] bytes, then the page's values `PLAIN`.
    page: Vec<u8>,
    /// The page's first row, in the row group.
    first: usize,
    /// The page's rows.
    rows: usize,
    /// The column chunk of the row group's pages so far.
    chunk: Option<Chunk>,
    /// A chunk's memory, given back once appended to its row group.
    pub(super) kept: Vec<u8>,
}

impl Paged {
    /// A column with room for a page and its chunk: reserved, not
    /// touched (grown by doubling, each was copied into memory touched
    /// anew).
    pub(super) fn new() -> Paged {
        Paged {
            page: Vec::with_capacity(GAP + 2 * PAGE_BYTES),
            first: 0,
            rows: 0,
            chunk: None,
            kept: Vec::with_capacity(2 * PAGE_BYTES),
        }
    }

    /// Adds a game's rows, `codes` (0 NULL, else the value's length and
    /// 1; `present` of them not NULL), their values one after another in
    /// `text`: at once where no page ends among them (most games: a page
    /// is 20,000 rows), else a row at a time ([`Paged::push`]).
    #[inline]
    pub(super) fn push_all<C: Code>(
        &mut self,
        codes: &[C],
        present: usize,
        text: &[u8],
        chunks: &mut TextChunks,
        levels: Option<&Levels>,
    ) -> io::Result<()> {
        if self.page.len() < GAP {
            self.page.resize(GAP, 0);
        }
        let bytes = text.len() + 4 * present;
        let whole =
            self.rows + codes.len() < PAGE_ROWS && self.page.len() - GAP + bytes < PAGE_BYTES;
        if whole && present == 0 {
            self.rows += codes.len();
            return Ok(());
        }
        if whole {
            self.page.reserve(bytes);
        }
        let mut at = 0;
        for &c in codes {
            let value = match c.wide() {
                0 => None,
                c => {
                    let end = at + (c - 1) as usize;
                    let value = text.get(at..end);
                    at = end;
                    Some(value.ok_or_else(|| rows::bug("a column's text cut short"))?)
                }
            };
            match (whole, value) {
                (true, Some(v)) => self.value(v)?,
                (true, None) => {}
                (false, _) => self.push(value, chunks, levels)?,
            }
        }
        if whole {
            self.rows += codes.len();
        }
        Ok(())
    }

    /// Appends a value to the page: its length, then its bytes.
    #[inline]
    fn value(&mut self, v: &[u8]) -> io::Result<()> {
        let len =
            u32::try_from(v.len()).map_err(|_| io::Error::other("a text value past 4 GiB"))?;
        self.page.extend_from_slice(&len.to_le_bytes());
        self.page.extend_from_slice(v);
        Ok(())
    }

    /// Adds a row, its value or NULL (`levels`: the row group's definition
    /// levels, this row's among them, where the column may be NULL), and
    /// writes the page where it is full.
    #[inline]
    pub(super) fn push(
        &mut self,
        value: Option<&[u8]>,
        chunks: &mut TextChunks,
        levels: Option<&Levels>,
    ) -> io::Result<()> {
        if self.page.len() < GAP {
            self.page.resize(GAP, 0);
        }
        if let Some(v) = value {
            self.value(v)?;
        }
        self.rows += 1;
        if self.rows >= PAGE_ROWS || self.page.len() - GAP >= PAGE_BYTES {
            chunks.paged_page(self, levels).map_err(io::Error::other)?;
        }
        Ok(())
    }
}

/// A column chunk being written, a page at a time: its pages, each
/// compressed after its header, and what its metadata says of them.
struct Chunk {
    sink: TrackedWrite<Vec<u8>>,
    /// The encoding of its data pages.
    encoding: Encoding,
    /// How many pages of each type and encoding, in order.
    stats: Vec<PageEncodingStats>,
    /// Where each data page is, for the file's offset index (which the
    /// crate's column writer gives every column).
    locations: Vec<PageLocation>,
    /// The pages' bytes, compressed and not.
    compressed: usize,
    uncompressed: usize,
    dictionary_at: Option<i64>,
    data_at: Option<i64>,
    /// The rows of its data pages.
    rows: usize,
}

impl Chunk {
    /// A chunk written into `memory` (emptied), its data pages of
    /// `encoding`.
    fn new(mut memory: Vec<u8>, encoding: Encoding) -> Chunk {
        memory.clear();
        Chunk {
            sink: TrackedWrite::new(memory),
            encoding,
            stats: Vec::new(),
            locations: Vec::new(),
            compressed: 0,
            uncompressed: 0,
            dictionary_at: None,
            data_at: None,
            rows: 0,
        }
    }

    /// Counts the page written.
    fn add(&mut self, spec: &PageWriteSpec) {
        self.compressed += spec.compressed_size;
        self.uncompressed += spec.uncompressed_size;
        match self.stats.last_mut() {
            Some(PageEncodingStats {
                page_type, count, ..
            }) if *page_type == spec.page_type => *count += 1,
            _ => self.stats.push(PageEncodingStats {
                page_type: spec.page_type,
                encoding: match spec.page_type {
                    PageType::DATA_PAGE => self.encoding,
                    _ => Encoding::PLAIN,
                },
                count: 1,
            }),
        }
    }
}

/// The compressor of the pages: one Zstandard context, and the buffer
/// of a page compressed, kept from page to page.
struct Packer {
    zstd: zstd::bulk::Compressor<'static>,
    packed: Vec<u8>,
}

impl Packer {
    /// Compresses the page `raw` and writes it into `chunk`.
    fn put(
        &mut self,
        chunk: &mut Chunk,
        raw: &[u8],
        page: impl FnOnce(Bytes) -> Page,
    ) -> parquet::errors::Result<PageWriteSpec> {
        let mut packed = std::mem::take(&mut self.packed);
        packed.reserve(zstd::zstd_safe::compress_bound(raw.len()));
        self.zstd.compress_to_buffer(raw, &mut packed)?;
        // Kept while the page writer holds the page, then taken back.
        let packed = Bytes::from(packed);
        let mut pages = SerializedPageWriter::new(&mut chunk.sink);
        let spec = pages.write_page(CompressedPage::new(page(packed.clone()), raw.len()));
        self.packed = reclaim(packed);
        let spec = spec?;
        chunk.add(&spec);
        Ok(spec)
    }

    /// Compresses the data page `raw`, of `rows` rows, and writes it into
    /// `chunk`.
    fn data_page(
        &mut self,
        chunk: &mut Chunk,
        raw: &[u8],
        rows: usize,
    ) -> parquet::errors::Result<()> {
        let encoding = chunk.encoding;
        let spec = self.put(chunk, raw, |buf| Page::DataPage {
            buf,
            num_values: rows as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        })?;
        chunk.data_at.get_or_insert(spec.offset as i64);
        chunk.locations.push(PageLocation {
            offset: spec.offset as i64,
            compressed_page_size: spec.bytes_written as i32,
            first_row_index: chunk.rows as i64,
        });
        chunk.rows += rows;
        Ok(())
    }
}

/// The writer of every column's chunks: the values of a row group are
/// written from its buffers, each data page made at once (the definition
/// levels, then each value `PLAIN`, its index in the chunk's dictionary,
/// or the numbers' encoding), with no `ByteArray` a value nor the crate's
/// column writer's bookkeeping of each; each page compressed with
/// Zstandard at [`ZSTD_LEVEL`]; a text column with no dictionary a page
/// at a time as its values come ([`Paged`]). One for the three tables of
/// a run: its Zstandard context and its buffers (a page, the page
/// compressed, a column chunk) are made once and reused, their memory not
/// touched anew for each page or chunk.
pub(super) struct TextChunks {
    packer: Packer,
    /// A page being made.
    page: Vec<u8>,
    /// A column chunk being written ([`TextChunks::pages`]), and given
    /// back once appended ([`TextChunks::reuse`]).
    chunk: Vec<u8>,
    /// The definition levels of the chunk or page being written, as
    /// bytes ([`Levels::bytes`]): one buffer for every column's.
    pub(super) levels: Vec<u8>,
}

/// Appends a data page's definition levels, `levels` (1 a value, 0
/// NULL): their length in bytes, then their RLE / bit-packing hybrid.
fn put_levels(page: &mut Vec<u8>, levels: &[u8]) {
    let at = page.len();
    page.extend_from_slice(&[0; 4]);
    rle_hybrid(page, levels, 1);
    let n = (page.len() - at - 4) as u32;
    page[at..at + 4].copy_from_slice(&n.to_le_bytes());
}

/// The vector of `bytes`, where nothing else holds it (else a new one):
/// its room kept for the next page or chunk.
pub(super) fn reclaim(bytes: Bytes) -> Vec<u8> {
    let mut v = bytes.try_into_mut().map(Vec::from).unwrap_or_default();
    v.clear();
    v
}

impl TextChunks {
    pub(super) fn new() -> io::Result<TextChunks> {
        Ok(TextChunks {
            packer: Packer {
                zstd: zstd::bulk::Compressor::new(ZSTD_LEVEL)?,
                packed: Vec::new(),
            },
            page: Vec::new(),
            chunk: Vec::new(),
            levels: Vec::new(),
        })
    }

    /// Takes back a column chunk's bytes once appended to its row group.
    pub(super) fn reuse(&mut self, chunk: Bytes) {
        self.chunk = reclaim(chunk);
    }

    /// Writes the page that `paged` holds (`levels`: the row group's
    /// definition levels where the column may be NULL) into its chunk,
    /// and starts the next.
    fn paged_page(
        &mut self,
        paged: &mut Paged,
        levels: Option<&Levels>,
    ) -> parquet::errors::Result<()> {
        if paged.page.len() < GAP {
            paged.page.resize(GAP, 0);
        }
        let chunk = paged
            .chunk
            .get_or_insert_with(|| Chunk::new(std::mem::take(&mut paged.kept), Encoding::PLAIN));
        let rows = paged.first..paged.first + paged.rows;
        // The page: its levels' length and levels, then its values, the
        // levels put in the room before the values (or, were they to
        // take more, the values copied after them).
        let start = match levels {
            None => Some(GAP),
            Some(levels) => {
                self.page.clear();
                put_levels(&mut self.page, levels.bytes(rows, &mut self.levels));
                GAP.checked_sub(self.page.len()).inspect(|&start| {
                    paged.page[start..GAP].copy_from_slice(&self.page);
                })
            }
        };
        match start {
            Some(start) => self
                .packer
                .data_page(chunk, &paged.page[start..], paged.rows)?,
            None => {
                self.page.extend_from_slice(&paged.page[GAP..]);
                self.packer.data_page(chunk, &self.page, paged.rows)?;
            }
        }
        paged.first += paged.rows;
        paged.rows = 0;
        paged.page.truncate(GAP);
        Ok(())
    }

    /// The column chunk of a [`Paged`] column's row group, as
    /// [`TextChunks::pages`] gives it: its last page written, its pages
    /// and metadata; the column ready for the next row group.
    pub(super) fn paged_chunk(
        &mut self,
        descr: ColumnDescPtr,
        paged: &mut Paged,
        levels: Option<&Levels>,
    ) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
        if paged.rows > 0 || paged.chunk.is_none() {
            self.paged_page(paged, levels)?;
        }
        paged.first = 0;
        match paged.chunk.take() {
            Some(chunk) => self.close(descr, chunk, None),
            None => Err(parquet::errors::ParquetError::General(
                "a column chunk of no page (a bug)".to_string(),
            )),
        }
    }

    /// The column chunk of a dictionary column's values, as
    /// [`TextChunks::pages`] gives it: through its dictionary, or `PLAIN`
    /// where the dictionary outgrows [`DICTIONARY_BYTES`] or there is no
    /// value.
    pub(super) fn dictionary_chunk(
        &mut self,
        descr: ColumnDescPtr,
        dict: &Dict,
        levels: Option<&[u8]>,
        stats: bool,
    ) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
        // The least and the greatest value (bytewise, as UTF-8 strings
        // are ordered), and the NULLs: each distinct value looked at once.
        let statistics = stats.then(|| {
            let nulls = levels.map_or(0, nulls);
            let values = (0..dict.ends.len() as u32).map(|i| dict.value(i));
            let (min, max) = values.fold((None, None), |(min, max): (Option<&[u8]>, _), v| {
                (
                    Some(min.map_or(v, |m| m.min(v))),
                    Some(max.map_or(v, |m: &[u8]| m.max(v))),
                )
            });
            let bytes = |v: Option<&[u8]>| v.map(|v| ByteArray::from(v.to_vec()));
            Statistics::byte_array(bytes(min), bytes(max), None, Some(nulls as u64), false)
        });
        if dict.indices.is_empty() || dict.bytes > DICTIONARY_BYTES {
            // Each value's place in the dictionary's text.
            let indices = dict.indices.slice();
            let spans: Vec<Span> = (0..indices.len())
                .map(|k| {
                    let i = indices.get(k) as usize;
                    let start = match i {
                        0 => 0,
                        _ => dict.ends[i - 1],
                    };
                    (start, dict.ends[i])
                })
                .collect();
            let body = Body::Text {
                text: &dict.data,
                spans: &spans,
            };
            return self.pages(descr, levels, None, &body, statistics);
        }
        let body = Body::Indices {
            indices: dict.indices.slice(),
            width: u32::BITS - (dict.ends.len() as u32).saturating_sub(1).leading_zeros(),
            dict,
        };
        self.pages(descr, levels, Some(dict), &body, statistics)
    }

    /// The column chunk of whole numbers (`DELTA_BINARY_PACKED`) or of
    /// booleans (`PLAIN`), with their minimum, maximum and NULLs as its
    /// statistics, as [`TextChunks::pages`] gives it.
    pub(super) fn numbers(
        &mut self,
        descr: ColumnDescPtr,
        values: &Values,
        levels: Option<&[u8]>,
    ) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
        let nulls = levels.map_or(0, nulls) as u64;
        let (body, statistics) = match values {
            Values::Int(v) => {
                let (least, most) = each!(v.slice(), v => extremes(v)
                    .map(|(least, most)| (least.wide(), most.wide())))
                .unzip();
                (
                    Body::Int(v.slice()),
                    Statistics::int64(least, most, None, Some(nulls), false),
                )
            }
            Values::Bool(v) => {
                // Whether all are true and whether any is, in one pass
                // with no early exit (many flags an instruction).
                let (all, any) = v
                    .iter()
                    .fold((true, false), |(all, any), &b| (all & b, any | b));
                let some = !v.is_empty();
                (
                    Body::Bool(v),
                    Statistics::boolean(
                        some.then_some(all),
                        some.then_some(any),
                        None,
                        Some(nulls),
                        false,
                    ),
                )
            }
            Values::Text | Values::Paged(_) => {
                return Err(parquet::errors::ParquetError::General(
                    "text written as numbers (a bug)".to_string(),
                ))
            }
        };
        self.pages(descr, levels, None, &body, Some(statistics))
    }

    /// The column chunk of `body`'s values (`levels`: a definition level a
    /// row where the column may be NULL): its dictionary page where there
    /// is a `dictionary`, its data pages ([`PAGE_ROWS`], [`PAGE_BYTES`]),
    /// each compressed, and its metadata; its pages from offset 0, for
    /// [`SerializedRowGroupWriter::append_column`](parquet::file::writer::SerializedRowGroupWriter::append_column).
    pub(super) fn pages(
        &mut self,
        descr: ColumnDescPtr,
        levels: Option<&[u8]>,
        dictionary: Option<&Dict>,
        body: &Body<'_>,
        statistics: Option<Statistics>,
    ) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
        let values = body.len();
        let rows = levels.map_or(values, <[u8]>::len);
        let mut chunk = Chunk::new(std::mem::take(&mut self.chunk), body.encoding());
        if let Some(dict) = dictionary {
            self.page.clear();
            self.page.reserve(dict.bytes);
            let mut start = 0;
            for &end in &dict.ends {
                self.page.extend_from_slice(&(end - start).to_le_bytes());
                self.page
                    .extend_from_slice(&dict.data[start as usize..end as usize]);
                start = end;
            }
            let n = dict.ends.len() as u32;
            let spec = self
                .packer
                .put(&mut chunk, &self.page, |buf| Page::DictionaryPage {
                    buf,
                    num_values: n,
                    encoding: Encoding::PLAIN,
                    is_sorted: false,
                })?;
            chunk.dictionary_at = Some(spec.offset as i64);
        }
        // A page's rows and values.
        let (mut row, mut value) = (0, 0);
        while row < rows || chunk.data_at.is_none() {
            // The rows of this page, and the values among them.
            let (end_row, end_value) = body.page(levels, rows, row, value);
            self.page.clear();
            if let Some(levels) = levels {
                put_levels(&mut self.page, &levels[row..end_row]);
            }
            body.encode(&mut self.page, value..end_value);
            self.packer
                .data_page(&mut chunk, &self.page, end_row - row)?;
            (row, value) = (end_row, end_value);
        }
        self.close(descr, chunk, statistics)
    }

    /// The bytes of `chunk`, its pages written, and its metadata
    /// (`statistics` where it has them).
    fn close(
        &mut self,
        descr: ColumnDescPtr,
        chunk: Chunk,
        statistics: Option<Statistics>,
    ) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
        let mut encodings = vec![Encoding::PLAIN, Encoding::RLE];
        if chunk.encoding != Encoding::PLAIN {
            encodings.push(chunk.encoding);
        }
        let level = ZstdLevel::try_new(ZSTD_LEVEL)?;
        let mut metadata = ColumnChunkMetaData::builder(descr)
            .set_compression(Compression::ZSTD(level))
            .set_encodings(encodings)
            .set_page_encoding_stats(chunk.stats)
            .set_total_compressed_size(chunk.compressed as i64)
            .set_total_uncompressed_size(chunk.uncompressed as i64)
            .set_num_values(chunk.rows as i64)
            .set_data_page_offset(chunk.data_at.unwrap_or_default())
            .set_dictionary_page_offset(chunk.dictionary_at);
        if let Some(statistics) = statistics {
            metadata = metadata.set_statistics(statistics);
        }
        let metadata = metadata.build()?;
        let bytes = Bytes::from(chunk.sink.into_inner()?);
        let close = ColumnCloseResult {
            bytes_written: bytes.len() as u64,
            rows_written: chunk.rows as u64,
            metadata,
            bloom_filter: None,
            column_index: None,
            offset_index: Some(OffsetIndexMetaData {
                page_locations: chunk.locations,
                unencoded_byte_array_data_bytes: None,
            }),
        };
        Ok((bytes, close))
    }
}

/// The row after the one of the `taken`th value from row `row`, by the
/// definition levels `levels` (1 a value, 0 NULL; there are that many
/// values from `row`): whole blocks of rows before it added up at once
/// ([`add_bytes`]), then a row at a time, where each row was one.
fn row_after(levels: &[u8], row: usize, taken: usize) -> usize {
    const BLOCK: usize = 256;
    let (mut end_row, mut seen) = (row, 0);
    for block in levels[row..].chunks_exact(BLOCK) {
        let n = add_bytes(block);
        if seen + n >= taken {
            break;
        }
        (seen, end_row) = (seen + n, end_row + BLOCK);
    }
    while seen < taken {
        seen += usize::from(levels[end_row]);
        end_row += 1;
    }
    end_row
}

/// The least and the greatest of `values` (`None` where there are none),
/// in one pass that the compiler makes many values an instruction, where
/// `Iterator::min` and `max` went a value at a time each.
fn extremes<T: Copy + Ord>(values: &[T]) -> Option<(T, T)> {
    let &first = values.first()?;
    Some(values.iter().fold((first, first), |(least, most), &x| {
        (least.min(x), most.max(x))
    }))
}

/// The values of a column chunk's data pages ([`TextChunks::pages`]).
pub(super) enum Body<'a> {
    /// Text, `PLAIN`: each value's length and bytes.
    Text { text: &'a [u8], spans: &'a [Span] },
    /// Text through a dictionary: each value's index, `width` bits each.
    Indices {
        indices: lanes::Slice<'a, u8, u16, u32>,
        width: u32,
        dict: &'a Dict,
    },
    /// Whole numbers, `DELTA_BINARY_PACKED`.
    Int(lanes::Slice<'a, i16, i32, i64>),
    /// Booleans, `PLAIN`: a bit each.
    Bool(&'a [bool]),
}

impl Body<'_> {
    /// How many values (not NULL) it holds.
    fn len(&self) -> usize {
        match self {
            Body::Text { spans, .. } => spans.len(),
            Body::Indices { indices, .. } => indices.len(),
            Body::Int(v) => v.len(),
            Body::Bool(v) => v.len(),
        }
    }

    /// The encoding of its data pages.
    fn encoding(&self) -> Encoding {
        match self {
            Body::Text { .. } | Body::Bool(_) => Encoding::PLAIN,
            Body::Indices { .. } => Encoding::RLE_DICTIONARY,
            Body::Int(_) => Encoding::DELTA_BINARY_PACKED,
        }
    }

    /// Where the data page from row `row` (value `value`) of `rows` ends
    /// (its last row and value, after them): at [`PAGE_ROWS`] rows, or
    /// once its values take [`PAGE_BYTES`] `PLAIN` (text; a page of
    /// numbers or flags is far smaller).
    pub(super) fn page(
        &self,
        levels: Option<&[u8]>,
        rows: usize,
        row: usize,
        value: usize,
    ) -> (usize, usize) {
        let end = rows.min(row + PAGE_ROWS);
        if end == row {
            return (end, value);
        }
        let values = levels.map_or(end - row, |l| present(&l[row..end]));
        // Values no longer than a dictionary's longest take less than a
        // page (every short one: a square, a move).
        if let Body::Indices { dict, .. } = self {
            if (dict.longest + 4).saturating_mul(values) < PAGE_BYTES {
                return (end, value + values);
            }
        }
        // The values of the page's rows but its last: where they take
        // less than a page, so do the rows before each (the page is all
        // the rows), else each row is counted until they do.
        // That is: the page ends at the row of the value whose bytes
        // reach a page, found in one pass over the values.
        let last = usize::from(levels.is_none_or(|l| l[end - 1] == 1));
        let (taken, bytes) = self.take_plain(value..value + values - last, PAGE_BYTES);
        if bytes < PAGE_BYTES {
            return (end, value + values);
        }
        // The row after the `taken`th value.
        let end_row = match levels {
            None => row + taken,
            Some(l) => row_after(l, row, taken),
        };
        (end_row, value + taken)
    }

    /// How many of the values `range` there are up to the one whose bytes
    /// `PLAIN` (each one's length and itself; numbers and flags are not
    /// counted) reach `limit` with those before it, or all of them, and
    /// their bytes. A dictionary's indices are read at their width.
    fn take_plain(&self, range: std::ops::Range<usize>, limit: usize) -> (usize, usize) {
        fn take(sizes: impl Iterator<Item = usize>, limit: usize) -> (usize, usize) {
            let (mut n, mut bytes) = (0, 0);
            for size in sizes {
                bytes += size;
                n += 1;
                if bytes >= limit {
                    break;
                }
            }
            (n, bytes)
        }
        match self {
            Body::Text { spans, .. } => take(
                spans[range]
                    .iter()
                    .map(|&(start, end)| (end - start) as usize + 4),
                limit,
            ),
            Body::Indices { indices, dict, .. } => each!(indices, ix => take(
                ix[range].iter().map(|&i| dict.len_of(Lane::<u32>::wide(i)) + 4),
                limit,
            )),
            Body::Int(_) | Body::Bool(_) => (range.len(), 0),
        }
    }

    /// Appends the values `range` encoded, as a data page holds them.
    fn encode(&self, out: &mut Vec<u8>, range: std::ops::Range<usize>) {
        match self {
            Body::Text { text, spans } => {
                for &(start, end) in &spans[range] {
                    out.extend_from_slice(&(end - start).to_le_bytes());
                    out.extend_from_slice(&text[start as usize..end as usize]);
                }
            }
            Body::Indices { indices, width, .. } => {
                out.push(*width as u8);
                each!(indices, v => rle_hybrid(out, &v[range], *width));
            }
            Body::Int(v) => each!(v, v => delta_binary_packed(out, &v[range])),
            // A bit each, in bytes: groups of eight at one bit a value.
            Body::Bool(v) => eights(out, &v[range], 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The row after the `taken`th value is the one found a row at a
        /// time, from any row, for runs of NULLs and of values past a
        /// block.
        #[test]
        fn the_row_after_a_value_is_found_as_row_by_row(
            runs in proptest::collection::vec((proptest::bool::ANY, 1usize..600), 1..12),
            row in 0usize..2000,
            taken in 1usize..3000,
        ) {
            let levels: Vec<u8> = runs
                .iter()
                .flat_map(|&(value, n)| std::iter::repeat_n(u8::from(value), n))
                .collect();
            let row = row.min(levels.len() - 1);
            let taken = taken.min(levels[row..].iter().filter(|&&l| l == 1).count());
            let (mut want, mut seen) = (row, 0);
            while seen < taken {
                seen += usize::from(levels[want]);
                want += 1;
            }
            proptest::prop_assert_eq!(row_after(&levels, row, taken), want);
        }

        /// [`extremes`] is the least and the greatest value, as
        /// `Iterator::min` and `max` give them, at each width of
        /// [`lanes`] and for none.
        #[test]
        fn extremes_are_the_least_and_the_greatest(
            small in proptest::collection::vec(proptest::num::i16::ANY, 0..300),
            wide in proptest::collection::vec(proptest::num::i64::ANY, 0..300),
        ) {
            let want = |v: &[i16]| v.iter().min().copied().zip(v.iter().max().copied());
            proptest::prop_assert_eq!(extremes(&small), want(&small));
            let want = |v: &[i64]| v.iter().min().copied().zip(v.iter().max().copied());
            proptest::prop_assert_eq!(extremes(&wide), want(&wide));
        }
    }
}
