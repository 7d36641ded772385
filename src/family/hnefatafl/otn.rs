//! `otn`: OpenTafl notation (.otg).
