//! XML: serialization (the DOM Parsing and Serialization standard's XML serialization, what
//! `XMLSerializer` does), infoset coercion (13.2.9 "Coercing an HTML DOM into an infoset"),
//! and parsing XML documents into the same [`Document`](crate::Document) arena.
//!
//! ```
//! use html_arena::{Document, xml::XmlSerializeOptions};
//!
//! let doc = Document::parse("<p>a<br>b");
//! // What XMLSerializer.serializeToString(document) gives in a browser:
//! assert_eq!(
//!     doc.xml(),
//!     r#"<html xmlns="http://www.w3.org/1999/xhtml"><head></head><body><p>a<br />b</p></body></html>"#
//! );
//! // Coerced first, "require well-formed" always succeeds on a parsed tree:
//! let xml = doc.coerce_to_infoset().root().xml_with(&XmlSerializeOptions::well_formed())?;
//! # Ok::<(), html_arena::xml::XmlSerializeError>(())
//! ```

mod chars;
pub mod coerce;
pub mod parse;
pub mod serialize;

pub use coerce::coerce;
pub use parse::{XmlErrorKind, XmlFragmentContext, XmlParseError, XmlParseOptions};
pub use serialize::{
    HTML_NAMESPACE, NotWellFormed, XML_NAMESPACE, XMLNS_NAMESPACE, XmlSerializeError,
    XmlSerializeOptions, serialize, serialize_to_io,
};
