#![doc = include_str!("../README.md")]
//!
//! # How it works
//!
//! The parser follows the parsing chapter of the HTML Standard snapshot of 16 September 2026
//! (whatwg/html `d78d7dd`).
//!
//! ## The pipeline
//!
//! ```text
//! bytes ─► encoding sniffing ─► decoding ─► input stream ─► tokenizer ─► tree builder ─► Document
//!          (BOM, HTTP label,    (encoding_rs) (CR/LF, positions, (84 states) (21 insertion    │
//!           <meta> prescan,                    input errors)                 modes, foreign   ├─► select (CSS)
//!           default)                                                         content)         ├─► serialize
//!             ▲                                                                 │             ├─► text
//!             └───────── a late <meta charset> restarts the parse ─────────────┘             └─► mutation
//! ```
//!
//! Input comes whole (`&str`, `&[u8]`) or in chunks ([`Parser`]); any chunking gives the same
//! tree. Parse errors are data ([`Document::errors`]), never `Result`s: every input gives a
//! tree, as in a browser.
//!
//! ## Modules, in reading order
//!
//! - [`encoding`]: which encoding turns the bytes into text (13.2.3).
//! - [`tokenizer`]: the tokenizer (13.2.5), public for streaming token-level processing.
//! - The tree builder (13.2.6, private): tokens to nodes; entry points are [`Document::parse`],
//!   [`Document::parse_bytes`], [`Document::parse_fragment`] and [`Parser`].
//! - [`dom`]: the [`Document`] arena, handles ([`NodeRef`], [`ElementRef`]), names, mutation,
//!   rendered text.
//! - [`select`]: CSS selectors over the arena.
//! - [`serialize`]: the serialization algorithm (13.3) and its options.
//! - [`error`]: parse error codes and positions.
//!
//! ## Conformance
//!
//! The test suite runs every case of html5lib-tests (commit `9329e64`: tokenizer,
//! tree-construction, encoding, serializer) plus the cases the standard changed since
//! (`tests/data/html5lib-tests-updates`), and checks chunked input, round trips and deep
//! documents.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod dom;
pub mod encoding;
pub mod error;
mod parser;
pub mod select;
pub mod serialize;
pub mod tokenizer;
mod tree_builder;

pub use dom::names::{AttrNamespace, LocalName, Namespace, local_name};
pub use dom::{
    Document, ElementName, ElementRef, Limit, MutationError, NodeId, NodeKind, NodeRef, QuirksMode,
};
pub use encoding::{Confidence, EncodingError};
pub use error::{ErrorCode, ParseError};
pub use parser::ParseOptions;
pub use parser::Parser;
pub use select::{Selector, SelectorError, SelectorErrorKind};
pub use tree_builder::FragmentContextError;
