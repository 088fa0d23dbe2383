//! html-arena (under construction).
pub mod dom;
pub mod encoding;
pub mod error;
mod parser;
pub mod serialize;
pub mod tokenizer;
mod tree_builder;

pub use dom::names::{AttrNamespace, LocalName, Namespace, local_name};
pub use dom::{Document, ElementRef, NodeId, NodeKind, NodeRef, QuirksMode};
pub use encoding::{Confidence, EncodingError};
pub use error::{ErrorCode, ParseError};
pub use parser::ParseOptions;
pub use parser::Parser;
pub use tree_builder::FragmentContextError;
