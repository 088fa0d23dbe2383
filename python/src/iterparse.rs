//! `html_arena.iterparse`: the matches of CSS selectors while the input is parsed, with the
//! Rust core's streaming parser (`html_arena::stream`), memory bounded by what is still open.
//!
//! The iterator pulls the input a piece at a time (at most `chunk_size` bytes, or characters
//! of a `str`), parses it with the GIL released, and hands out the matches the piece decided
//! before it pulls the next one: what it holds is the parser's open elements, the matches of
//! one piece, and one piece of input. Each match is a small document of its own (the matched
//! element's subtree, and its ancestors when the selector looks at them), wrapped as the
//! usual `Node`.

use std::sync::Arc;

use html_arena::stream::{StreamError, StreamMatch, StreamParser};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyMemoryView, PySlice, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use super::{EncodingError, Shared, compile, node, options};

pyo3::create_exception!(
    html_arena,
    UnsupportedSelectorError,
    PyValueError,
    "A valid CSS selector that `iterparse` cannot answer while streaming (it needs what a \
     streaming parse has already freed, or has not read yet: `~`, `:last-child`, \
     `:nth-last-*`, ...). `selector` is the selector, `part` the part refused, `reason` why."
);

/// Registers `iterparse` and its types with the extension module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(iterparse, m)?)?;
    m.add_class::<IterParse>()?;
    m.add(
        "UnsupportedSelectorError",
        m.py().get_type::<UnsupportedSelectorError>(),
    )?;
    Ok(())
}

/// The default piece of input: 64 KiB.
const CHUNK: usize = 64 * 1024;

/// Yields the elements matching `selector` (a CSS selector, or a list of them) while `source`
/// is parsed, in document order, each as a `Node` in a small document of its own. `source`:
/// `bytes`, `bytearray`, `memoryview` or `str` (as `parse` takes them), a file object opened
/// in binary or text mode (read `chunk_size` at a time), or an iterable of such chunks.
/// `encoding`, `url` and `scripting` are those of `parse`. A selector the streaming parser
/// cannot answer raises `UnsupportedSelectorError` here, before any input is read (as does
/// an unknown `encoding` label, `EncodingError`).
#[pyfunction]
#[pyo3(signature = (source, selector, *, encoding=None, url=None, scripting=false, extended=true, chunk_size=CHUNK))]
#[allow(clippy::too_many_arguments)]
fn iterparse(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    selector: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    url: Option<&str>,
    scripting: bool,
    extended: bool,
    chunk_size: usize,
) -> PyResult<IterParse> {
    if chunk_size == 0 {
        return Err(PyValueError::new_err("chunk_size must be at least 1"));
    }
    // The selectors: one string (then the nodes are yielded alone), or a list or tuple of
    // them (then `(matched, node)` pairs, `matched` the tuple of those that matched).
    let (texts, names) = if let Ok(s) = selector.cast::<PyString>() {
        (vec![s.to_cow()?.into_owned()], None)
    } else if selector.cast::<PyList>().is_ok() || selector.cast::<PyTuple>().is_ok() {
        let mut texts = Vec::new();
        let mut names = Vec::new();
        for item in selector.try_iter()? {
            let item = item?;
            let s = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err("iterparse: each selector of the list must be a str")
            })?;
            texts.push(s.to_cow()?.into_owned());
            names.push(s.clone().unbind());
        }
        if texts.is_empty() {
            return Err(PyValueError::new_err(
                "iterparse: the list of selectors is empty",
            ));
        }
        (texts, Some(names))
    } else {
        return Err(PyTypeError::new_err(format!(
            "iterparse: selector must be a str or a list of str, got {}",
            selector.get_type().name()?
        )));
    };
    let selectors = texts
        .iter()
        .map(|css| compile(css, extended))
        .collect::<PyResult<Vec<_>>>()?;
    let options = options(encoding, url, scripting)?;
    if encoding.is_some() {
        // An unknown label is the caller's mistake, whatever the input: raise it here, with
        // `parse`'s words, rather than on the first read.
        html_arena::Document::parse_bytes(b"", &options)
            .map_err(|e| EncodingError::new_err(e.to_string()))?;
    }
    let parser = StreamParser::new(&selectors, &options).map_err(|e| stream_error(py, e))?;
    let (source, piece) = Source::of(source)?;
    Ok(IterParse {
        parser: Some(parser),
        source,
        piece,
        text: None,
        chunk_size,
        names,
        finished: false,
    })
}

/// The Python exception for a streaming error.
fn stream_error(py: Python<'_>, e: StreamError) -> PyErr {
    match &e {
        StreamError::Unsupported {
            selector,
            part,
            reason,
        } => {
            let err = UnsupportedSelectorError::new_err(e.to_string());
            let value = err.value(py);
            let _ = value.setattr("selector", selector);
            let _ = value.setattr("part", part);
            let _ = value.setattr("reason", reason);
            err
        }
        StreamError::Encoding(_) => EncodingError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Where the input comes from.
enum Source {
    /// The whole input was given (it is the current piece), or the source is exhausted.
    Done,
    /// A file object's `read` method.
    Reader(Py<PyAny>),
    /// An iterator of chunks.
    Chunks(Py<PyAny>),
}

/// A chunk of input being fed, a slice at a time.
enum Piece {
    /// Bytes (borrowed from the immutable `bytes` object while the GIL is released) and how
    /// many were fed.
    Bytes(Py<PyBytes>, usize),
    /// A `str`, its length in characters, and how many were fed (sliced by characters, so
    /// only a slice is ever encoded to UTF-8).
    Str(Py<PyString>, usize, usize),
}

impl Source {
    fn of(source: &Bound<'_, PyAny>) -> PyResult<(Source, Option<Piece>)> {
        if let Some(piece) = piece_of(source)? {
            return Ok((Source::Done, Some(piece)));
        }
        if let Ok(read) = source.getattr("read") {
            return Ok((Source::Reader(read.unbind()), None));
        }
        match source.try_iter() {
            Ok(it) => Ok((Source::Chunks(it.into_any().unbind()), None)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "iterparse: source must be bytes, bytearray, memoryview, str, a file object or \
                 an iterable of chunks, got {}",
                source.get_type().name()?
            ))),
        }
    }
}

/// A chunk as a piece to feed; `None` for an object that is no chunk. A `bytearray` or
/// `memoryview` is copied (`bytes(chunk)`), so no other thread can change it while the
/// parser reads it without the GIL.
fn piece_of(chunk: &Bound<'_, PyAny>) -> PyResult<Option<Piece>> {
    if let Ok(s) = chunk.cast::<PyString>() {
        let len = s.len()?;
        return Ok(Some(Piece::Str(s.clone().unbind(), len, 0)));
    }
    if let Ok(b) = chunk.cast::<PyBytes>() {
        return Ok(Some(Piece::Bytes(b.clone().unbind(), 0)));
    }
    if chunk.cast::<PyByteArray>().is_ok() || chunk.cast::<PyMemoryView>().is_ok() {
        let copy = chunk.py().get_type::<PyBytes>().call1((chunk,))?;
        let copy = copy.cast_into::<PyBytes>()?;
        return Ok(Some(Piece::Bytes(copy.unbind(), 0)));
    }
    Ok(None)
}

/// The iterator `iterparse` returns: each match as a `Node` (or a `(matched, node)` pair for
/// a list of selectors). `close()` (or leaving a `with` block, or dropping the iterator)
/// stops the parse and frees what it holds.
#[pyclass(module = "html_arena")]
pub(crate) struct IterParse {
    /// `None` once the input ended, an error was raised, or `close()`.
    parser: Option<StreamParser>,
    source: Source,
    /// The chunk being fed.
    piece: Option<Piece>,
    /// Whether the input is text (`str` chunks): decided by the first chunk.
    text: Option<bool>,
    chunk_size: usize,
    /// The selectors as given, for a list of them.
    names: Option<Vec<Py<PyString>>>,
    /// The end of the input was reached and the parser finished.
    finished: bool,
}

/// What one step of feeding did.
enum Fed {
    /// A slice of input was parsed.
    Input,
    /// The input ended: the parser finished.
    End,
}

impl IterParse {
    /// The next chunk of the source as the current piece; `false` at the end of the source.
    fn pull(&mut self, py: Python<'_>) -> PyResult<bool> {
        loop {
            let chunk = match &self.source {
                Source::Done => return Ok(false),
                // (`None` from a non-blocking stream with no data ready is no chunk: a
                // `TypeError` below, rather than a silently truncated input.)
                Source::Reader(read) => read.bind(py).call1((self.chunk_size,))?,
                Source::Chunks(it) => match it.bind(py).call_method0("__next__") {
                    Ok(chunk) => chunk,
                    Err(e) if e.is_instance_of::<pyo3::exceptions::PyStopIteration>(py) => {
                        self.source = Source::Done;
                        return Ok(false);
                    }
                    Err(e) => return Err(e),
                },
            };
            let piece = piece_of(&chunk)?.ok_or_else(|| {
                let name = chunk
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                PyTypeError::new_err(format!(
                    "iterparse: a chunk must be bytes, bytearray, memoryview or str, got {name}"
                ))
            })?;
            let empty = match &piece {
                Piece::Bytes(b, _) => b.bind(py).as_bytes().is_empty(),
                Piece::Str(_, len, _) => *len == 0,
            };
            if empty {
                if matches!(self.source, Source::Reader(_)) {
                    // `read` gives an empty chunk at the end of the file.
                    self.source = Source::Done;
                    return Ok(false);
                }
                continue;
            }
            self.piece = Some(piece);
            return Ok(true);
        }
    }

    /// Parses the next slice of input (the GIL released), or finishes the parse at the end.
    fn feed(&mut self, py: Python<'_>) -> PyResult<Fed> {
        if self.piece.is_none() && !self.pull(py)? {
            let Some(parser) = self.parser.as_mut() else {
                return Ok(Fed::End);
            };
            py.detach(|| parser.finish())
                .map_err(|e| stream_error(py, e))?;
            self.finished = true;
            return Ok(Fed::End);
        }
        let (Some(piece), Some(parser)) = (self.piece.as_mut(), self.parser.as_mut()) else {
            return Ok(Fed::End);
        };
        let is_text = matches!(piece, Piece::Str(..));
        match self.text {
            None => self.text = Some(is_text),
            Some(text) if text != is_text => {
                return Err(PyTypeError::new_err(
                    "iterparse: the input mixes str and bytes chunks",
                ));
            }
            Some(_) => {}
        }
        let done = match piece {
            Piece::Bytes(bytes, fed) => {
                let bytes = bytes.bind(py).as_bytes();
                let end = fed.saturating_add(self.chunk_size).min(bytes.len());
                let slice = bytes.get(*fed..end).unwrap_or_default();
                *fed = end;
                py.detach(|| parser.write(slice))
                    .map_err(|e| stream_error(py, e))?;
                end >= bytes.len()
            }
            Piece::Str(text, len, fed) => {
                let end = fed.saturating_add(self.chunk_size).min(*len);
                let slice =
                    text.bind(py)
                        .get_item(PySlice::new(py, *fed as isize, end as isize, 1))?;
                let slice = slice.cast::<PyString>()?.to_cow()?;
                *fed = end;
                py.detach(|| parser.write_str(&slice))
                    .map_err(|e| stream_error(py, e))?;
                end >= *len
            }
        };
        if done {
            self.piece = None;
        }
        Ok(Fed::Input)
    }

    /// A match as what the iterator yields.
    fn wrap(&self, py: Python<'_>, m: StreamMatch) -> PyResult<Py<PyAny>> {
        let id = m.element().node_id();
        let matched: Vec<usize> = m.selectors().to_vec();
        let shared: Arc<Shared> = Shared::new(m.into_document());
        let found = Py::new(py, node(&shared, id))?.into_any();
        match &self.names {
            None => Ok(found),
            Some(names) => {
                let matched: Vec<&Py<PyString>> =
                    matched.iter().filter_map(|&i| names.get(i)).collect();
                let matched = PyTuple::new(py, matched)?.into_any();
                Ok(PyTuple::new(py, [matched.unbind(), found])?
                    .into_any()
                    .unbind())
            }
        }
    }

    /// Stops the parse and lets go of the source.
    fn stop(&mut self) {
        if let Some(mut parser) = self.parser.take() {
            parser.stop();
        }
        self.piece = None;
        self.source = Source::Done;
    }
}

#[pymethods]
impl IterParse {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next match: parses input until one is decided.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        loop {
            let Some(parser) = self.parser.as_mut() else {
                return Ok(None);
            };
            if let Some(m) = parser.next_match() {
                return self.wrap(py, m).map(Some);
            }
            if self.finished {
                self.stop();
                return Ok(None);
            }
            if let Err(e) = self.feed(py) {
                // As a generator that raised: the iteration is over.
                self.stop();
                return Err(e);
            }
        }
    }

    /// Stops the parse: the rest of the input is not read, and what the parser holds is
    /// freed. The iterator then yields nothing more. The source is not closed.
    fn close(&mut self) {
        self.stop();
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, _args: &Bound<'_, PyTuple>) -> bool {
        self.stop();
        false
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        match &self.source {
            Source::Reader(o) | Source::Chunks(o) => visit.call(o)?,
            Source::Done => {}
        }
        match &self.piece {
            Some(Piece::Bytes(b, _)) => visit.call(b)?,
            Some(Piece::Str(s, _, _)) => visit.call(s)?,
            None => {}
        }
        for name in self.names.iter().flatten() {
            visit.call(name)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.stop();
        self.names = None;
    }

    fn __repr__(&self) -> String {
        let state = if self.parser.is_some() {
            "parsing"
        } else {
            "done"
        };
        format!("<html_arena.IterParse {state}>")
    }
}
