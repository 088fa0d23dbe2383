//! Builds BeautifulSoup's object tree straight from a parsed document, for the
//! `html_arena.bs4` tree builder (`BeautifulSoup(markup, "html-arena")`).
//!
//! bs4's own builders create every `Tag` through `Tag.__init__` (a few dozen Python-level
//! steps per node) and link it through `object_was_parsed`. Here each object is made with
//! `object.__new__` / `str.__new__` and gets its finished `__dict__` in one assignment:
//! the same attributes `Tag.__init__` and `PageElement.setup` would have set, with the
//! document-order links (`next_element`, `previous_element`) and the sibling links filled in
//! as the tree is walked once, in document order, without recursion. Template contents
//! become the `<template>` tag's children, as in bs4's html5lib builder.
//!
//! What the Python side passes (`cfg`, a dict; see `html_arena/bs4.py`): the classes to
//! instantiate (after the soup's `element_classes`), the builder's settings
//! (`cdata_list_attributes`, `string_containers`, `empty_element_tags`) and a template dict
//! of the attributes every tag shares.

use std::collections::HashMap;
use std::rc::Rc;

use html_arena::{NodeKind, NodeRef, ParseOptions};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// Per tag name: what every tag of that name shares.
struct NameInfo<'py> {
    name: Bound<'py, PyString>,
    can_be_empty: Bound<'py, PyAny>,
    interesting: Bound<'py, PyAny>,
    /// The string class for strings inside (bs4's `string_containers`), if any.
    container: Option<Bound<'py, PyAny>>,
    /// Attribute names whose values are lists (bs4's `cdata_list_attributes`).
    list_attrs: Rc<[String]>,
}

/// An open tag during the walk.
struct Frame<'py, 'd> {
    /// The next child node to visit.
    next: Option<NodeRef<'d>>,
    /// The frame whose tag receives this frame's children: itself, or (for a tag that
    /// `parse_only` rejected) the soup's frame.
    target: usize,
    obj: Bound<'py, PyAny>,
    contents: Bound<'py, PyList>,
    /// The last child appended so far, and its `__dict__`.
    last_child: Option<(Bound<'py, PyAny>, Bound<'py, PyDict>)>,
    /// The string class for text in this frame (an ancestor's string container).
    container: Bound<'py, PyAny>,
}

struct Keys<'py> {
    parent: Bound<'py, PyString>,
    previous_element: Bound<'py, PyString>,
    next_element: Bound<'py, PyString>,
    previous_sibling: Bound<'py, PyString>,
    next_sibling: Bound<'py, PyString>,
    name: Bound<'py, PyString>,
    namespace: Bound<'py, PyString>,
    attrs: Bound<'py, PyString>,
    contents: Bound<'py, PyString>,
    sourceline: Bound<'py, PyString>,
    sourcepos: Bound<'py, PyString>,
    can_be_empty_element: Bound<'py, PyString>,
    interesting_string_types: Bound<'py, PyString>,
    dict: Bound<'py, PyString>,
}

impl<'py> Keys<'py> {
    fn new(py: Python<'py>) -> Self {
        let k = |s: &str| PyString::intern(py, s);
        Keys {
            parent: k("parent"),
            previous_element: k("previous_element"),
            next_element: k("next_element"),
            previous_sibling: k("previous_sibling"),
            next_sibling: k("next_sibling"),
            name: k("name"),
            namespace: k("namespace"),
            attrs: k("attrs"),
            contents: k("contents"),
            sourceline: k("sourceline"),
            sourcepos: k("sourcepos"),
            can_be_empty_element: k("can_be_empty_element"),
            interesting_string_types: k("interesting_string_types"),
            dict: k("__dict__"),
        }
    }
}

/// Python's `str.isspace` (what bs4's `\S+` splits on): Unicode White_Space plus the
/// information separators U+001C..U+001F.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Parses `markup` and builds bs4's tree under `soup`. Returns the name of the encoding
/// the bytes were decoded with (None for `str` input) and the `<meta>` tags whose charset
/// bs4 substitutes on output.
#[pyfunction]
#[pyo3(signature = (markup, soup, cfg, *, override_encoding=None, positions=false))]
pub(crate) fn bs4_build<'py>(
    py: Python<'py>,
    markup: &Bound<'py, PyAny>,
    soup: &Bound<'py, PyAny>,
    cfg: &Bound<'py, PyDict>,
    override_encoding: Option<&str>,
    positions: bool,
) -> PyResult<(Option<String>, Bound<'py, PyList>)> {
    let mut options = ParseOptions::default()
        .with_source_positions(positions)
        .with_collect_errors(false);
    if let Some(label) = override_encoding {
        options = options.with_override_encoding(label);
    }
    let markup = crate::markup(markup)?;
    let from_bytes = matches!(markup, crate::Markup::Bytes(_));
    let doc = crate::parse_markup(py, markup, &options)?;
    let encoding = from_bytes.then(|| doc.encoding().name().to_ascii_lowercase());
    let metas = PyList::empty(py);
    Builder::new(py, cfg)?.build(doc.root(), soup, &metas)?;
    Ok((encoding, metas))
}

struct Builder<'py> {
    py: Python<'py>,
    keys: Keys<'py>,
    object_new: Bound<'py, PyAny>,
    str_new: Bound<'py, PyAny>,
    tag_cls: Bound<'py, PyAny>,
    string_cls: Bound<'py, PyAny>,
    comment_cls: Bound<'py, PyAny>,
    doctype_cls: Bound<'py, PyAny>,
    pi_cls: Bound<'py, PyAny>,
    attrs_cls: Bound<'py, PyAny>,
    values_cls: Bound<'py, PyAny>,
    nsattr_cls: Bound<'py, PyAny>,
    cdata: Option<Bound<'py, PyDict>>,
    containers: Bound<'py, PyDict>,
    empty: Option<Bound<'py, PyAny>>,
    template: Bound<'py, PyDict>,
    main_types: Bound<'py, PyAny>,
    accept_tag: Option<Bound<'py, PyAny>>,
    accept_string: Option<Bound<'py, PyAny>>,
    names: HashMap<String, NameInfo<'py>>,
    attr_names: HashMap<String, Bound<'py, PyString>>,
    namespaces: HashMap<&'static str, Bound<'py, PyString>>,
}

impl<'py> Builder<'py> {
    fn new(py: Python<'py>, cfg: &Bound<'py, PyDict>) -> PyResult<Self> {
        let get = |k: &str| -> PyResult<Bound<'py, PyAny>> {
            cfg.get_item(k)?
                .ok_or_else(|| PyTypeError::new_err(format!("bs4 builder config lacks {k:?}")))
        };
        let opt = |k: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
            Ok(cfg.get_item(k)?.filter(|v| !v.is_none()))
        };
        let builtins = py.import("builtins")?;
        Ok(Builder {
            py,
            keys: Keys::new(py),
            object_new: builtins.getattr("object")?.getattr("__new__")?,
            str_new: builtins.getattr("str")?.getattr("__new__")?,
            tag_cls: get("tag")?,
            string_cls: get("string")?,
            comment_cls: get("comment")?,
            doctype_cls: get("doctype")?,
            pi_cls: get("pi")?,
            attrs_cls: get("attrs")?,
            values_cls: get("values")?,
            nsattr_cls: get("nsattr")?,
            cdata: opt("cdata")?.map(|d| d.cast_into::<PyDict>()).transpose()?,
            containers: get("containers")?.cast_into::<PyDict>()?,
            empty: opt("empty")?,
            template: get("template")?.cast_into::<PyDict>()?,
            main_types: get("main_types")?,
            accept_tag: opt("accept_tag")?,
            accept_string: opt("accept_string")?,
            names: HashMap::new(),
            attr_names: HashMap::new(),
            namespaces: HashMap::new(),
        })
    }

    fn name_info(&mut self, name: &str) -> PyResult<&NameInfo<'py>> {
        if !self.names.contains_key(name) {
            let py = self.py;
            let py_name = PyString::new(py, name);
            let can_be_empty = match &self.empty {
                None => true,
                Some(set) => set.contains(&py_name)?,
            };
            let container = self.containers.get_item(&py_name)?;
            let interesting = match &container {
                Some(cls) => pyo3::types::PySet::new(py, [cls])?.into_any(),
                None => self.main_types.clone(),
            };
            let mut list_attrs = Vec::new();
            if let Some(cdata) = &self.cdata {
                for key in ["*", &name.to_ascii_lowercase()] {
                    if let Some(set) = cdata.get_item(key)? {
                        for a in set.try_iter()? {
                            list_attrs.push(a?.extract::<String>()?);
                        }
                    }
                }
            }
            let info = NameInfo {
                name: py_name,
                can_be_empty: pyo3::types::PyBool::new(py, can_be_empty)
                    .to_owned()
                    .into_any(),
                interesting,
                container,
                list_attrs: list_attrs.into(),
            };
            self.names.insert(name.to_owned(), info);
        }
        Ok(&self.names[name])
    }

    fn attr_name(&mut self, name: &str) -> Bound<'py, PyString> {
        if let Some(s) = self.attr_names.get(name) {
            return s.clone();
        }
        let s = PyString::new(self.py, name);
        self.attr_names.insert(name.to_owned(), s.clone());
        s
    }

    fn namespace(&mut self, url: &str) -> Bound<'py, PyString> {
        let url: &'static str = match url {
            "http://www.w3.org/1999/xhtml" => "http://www.w3.org/1999/xhtml",
            "http://www.w3.org/2000/svg" => "http://www.w3.org/2000/svg",
            "http://www.w3.org/1998/Math/MathML" => "http://www.w3.org/1998/Math/MathML",
            other => return PyString::new(self.py, other),
        };
        self.namespaces
            .entry(url)
            .or_insert_with(|| PyString::new(self.py, url))
            .clone()
    }

    /// A new object of `cls` (a `str` subclass when `text` is given) whose `__dict__` is
    /// `dict`.
    fn make(
        &self,
        cls: &Bound<'py, PyAny>,
        text: Option<&str>,
        dict: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let obj = match text {
            Some(t) => self.str_new.call1((cls, t))?,
            None => self.object_new.call1((cls,))?,
        };
        obj.setattr(&self.keys.dict, dict)?;
        Ok(obj)
    }

    fn build(
        &mut self,
        root: NodeRef<'_>,
        soup: &Bound<'py, PyAny>,
        metas: &Bound<'py, PyList>,
    ) -> PyResult<()> {
        let py = self.py;
        let none = py.None().into_bound(py);
        let soup_dict = soup.getattr(&self.keys.dict)?.cast_into::<PyDict>()?;
        let soup_contents = soup.getattr(&self.keys.contents)?.cast_into::<PyList>()?;
        let mut frames: Vec<Frame<'py, '_>> = vec![Frame {
            next: root.first_child(),
            target: 0,
            obj: soup.clone(),
            contents: soup_contents,
            last_child: None,
            container: self.string_cls.clone(),
        }];
        // The `__dict__` and object of the last node made, in document order.
        let mut prev: (Bound<'py, PyDict>, Bound<'py, PyAny>) = (soup_dict, soup.clone());
        // Whether `parse_only` filters what is built at the top level.
        let filtering = self.accept_tag.is_some();
        while let Some(top) = frames.last_mut() {
            let Some(node) = top.next else {
                frames.pop();
                continue;
            };
            top.next = node.next_sibling();
            let target = top.target;
            let at_top = filtering && target == 0;
            let (obj, dict, child) = match node.kind() {
                NodeKind::Element(e) => {
                    let name = e.local_name();
                    if at_top {
                        let raw = PyDict::new(py);
                        for a in e.attrs() {
                            let key = match a.prefix() {
                                Some(p) => format!("{p}:{}", a.local_name),
                                None => a.local_name.to_owned(),
                            };
                            raw.set_item(key, a.value)?;
                        }
                        let accept = self.accept_tag.as_ref().map(|f| f.call1((name, raw)));
                        if let Some(accept) = accept
                            && !accept?.is_truthy()?
                        {
                            // Rejected: its children are considered at the top, as
                            // bs4's parse_only does.
                            let children = e.template_contents().unwrap_or(node).first_child();
                            let container = frames[0].container.clone();
                            frames.push(Frame {
                                next: children,
                                target: 0,
                                obj: soup.clone(),
                                contents: frames[0].contents.clone(),
                                last_child: None,
                                container,
                            });
                            continue;
                        }
                    }
                    let ns = self.namespace(e.namespace_url());
                    let info = self.name_info(name)?;
                    let (py_name, can_be_empty, interesting, container, list_attrs) = (
                        info.name.clone(),
                        info.can_be_empty.clone(),
                        info.interesting.clone(),
                        info.container.clone(),
                        Rc::clone(&info.list_attrs),
                    );
                    let attrs = self.attrs_cls.call0()?;
                    for a in e.attrs() {
                        let key: Bound<'py, PyAny> = if a.namespace.url().is_some() {
                            self.nsattr_cls
                                .call1((a.prefix(), a.local_name, a.namespace.url()))?
                        } else {
                            self.attr_name(a.local_name).into_any()
                        };
                        if !list_attrs.is_empty() && list_attrs.iter().any(|l| l == a.local_name) {
                            let tokens: Vec<&str> =
                                a.value.split(py_space).filter(|t| !t.is_empty()).collect();
                            let list = self.values_cls.call1((tokens,))?;
                            attrs.set_item(key, list)?;
                        } else {
                            attrs.set_item(key, a.value)?;
                        }
                    }
                    let dict = self.template.copy()?;
                    let k = &self.keys;
                    dict.set_item(&k.name, &py_name)?;
                    dict.set_item(&k.namespace, ns)?;
                    dict.set_item(&k.attrs, &attrs)?;
                    let contents = PyList::empty(py);
                    dict.set_item(&k.contents, &contents)?;
                    dict.set_item(&k.can_be_empty_element, can_be_empty)?;
                    dict.set_item(&k.interesting_string_types, interesting)?;
                    let span = node.source_span();
                    dict.set_item(&k.sourceline, span.map(|s| s.line))?;
                    dict.set_item(&k.sourcepos, span.map(|s| s.column.saturating_sub(1)))?;
                    let obj = self.make(&self.tag_cls, None, &dict)?;
                    if name == "meta" && !attrs.is_empty()? {
                        metas.append(&obj)?;
                    }
                    let container = container.unwrap_or_else(|| frames[target].container.clone());
                    let child = Frame {
                        next: e.template_contents().unwrap_or(node).first_child(),
                        target: frames.len(),
                        obj: obj.clone(),
                        contents,
                        last_child: None,
                        container,
                    };
                    (obj, dict, Some(child))
                }
                kind => {
                    let (cls, text): (Bound<'py, PyAny>, std::borrow::Cow<'_, str>) = match kind {
                        NodeKind::Text(t) => (frames[target].container.clone(), t.into()),
                        NodeKind::Comment(t) => (self.comment_cls.clone(), t.into()),
                        NodeKind::Doctype {
                            name,
                            public_id,
                            system_id,
                        } => {
                            // bs4's `Doctype._string_for_name_and_ids`, with the DOM's empty
                            // identifiers taken as missing.
                            let mut s = name.to_owned();
                            if !public_id.is_empty() {
                                s.push_str(&format!(" PUBLIC \"{public_id}\""));
                                if !system_id.is_empty() {
                                    s.push_str(&format!(" \"{system_id}\""));
                                }
                            } else if !system_id.is_empty() {
                                s.push_str(&format!(" SYSTEM \"{system_id}\""));
                            }
                            (self.doctype_cls.clone(), s.into())
                        }
                        // bs4's ProcessingInstruction writes `<?` + text + `>`: the text
                        // ends in `?` so that the output is our serialization's.
                        NodeKind::ProcessingInstruction { target, data } => {
                            (self.pi_cls.clone(), format!("{target} {data}?").into())
                        }
                        _ => continue,
                    };
                    if at_top
                        && let Some(f) = &self.accept_string
                        && !f.call1((&*text,))?.is_truthy()?
                    {
                        continue;
                    }
                    let dict = PyDict::new(py);
                    let obj = self.make(&cls, Some(&text), &dict)?;
                    (obj, dict, None)
                }
            };
            // PageElement.setup's links, and the previous node's forward links.
            let k = &self.keys;
            let tf = &mut frames[target];
            dict.set_item(&k.parent, &tf.obj)?;
            dict.set_item(&k.previous_element, &prev.1)?;
            dict.set_item(&k.next_element, &none)?;
            prev.0.set_item(&k.next_element, &obj)?;
            match &tf.last_child {
                Some((last, last_dict)) => {
                    last_dict.set_item(&k.next_sibling, &obj)?;
                    dict.set_item(&k.previous_sibling, last)?;
                }
                None => dict.set_item(&k.previous_sibling, &none)?,
            }
            dict.set_item(&k.next_sibling, &none)?;
            tf.contents.append(&obj)?;
            tf.last_child = Some((obj.clone(), dict.clone()));
            prev = (dict, obj);
            if let Some(child) = child {
                frames.push(child);
            }
        }
        // bs4 keeps the last object made here (html5lib's builder does too).
        soup.setattr("_most_recent_element", &prev.1)?;
        Ok(())
    }
}
