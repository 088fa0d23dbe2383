//! html-arena (under construction).
pub mod dom;
pub mod error;
mod parser;
pub mod tokenizer;

pub use dom::names::{AttrNamespace, LocalName, Namespace, local_name};
pub use dom::{Document, ElementRef, NodeId, NodeKind, NodeRef, QuirksMode};
pub use error::{ErrorCode, ParseError};
pub use parser::ParseOptions;
