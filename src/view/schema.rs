//! Reading JSON against a declared shape: one small interpreter for the codec's JS inputs (page
//! token states, continue token inputs), instead of one hand-written reader per shape (each a few
//! KB of wasm).
//!
//! A [`Shape`] lists an object's fields, each with a [`Kind`] and a [`Presence`]; [`read`]
//! checks the JSON against it and gives a [`Node`] tree whose object slots are in the shape's
//! field order, so the caller converts it without any check left to make. Errors name the field:
//! `sources[1].offset: expected a whole number, found a string`.
//!
//! Only the codec module's inputs are read here; the pager module's are read by a reader of the
//! same kind on the JS side (`src/wasm/driver.js`).

use crate::json::{JsonResult, Reader, Value};
use crate::prelude::*;

/// What a value must be.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// A string.
    Str,
    /// A whole number in `0..=u32::MAX`.
    U32,
    /// `true` or `false`.
    Bool,
    /// A whole number within `i64`, or a string (left as it is).
    IntOrStr,
    /// An array of values of a kind.
    List(&'static Kind),
    /// An object of this shape.
    Obj(&'static Shape),
}

/// Whether a field must be there, and what `null` means for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    /// Must be there; `null` is the wrong type.
    Required,
    /// May be missing or `null`: both are "not given".
    Optional,
}

/// One field of an object shape.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub presence: Presence,
}

/// An object's fields, and whether other keys are an error (else they are skipped).
#[derive(Debug)]
pub(crate) struct Shape {
    pub fields: &'static [Field],
    pub deny_unknown: bool,
}

/// A value read against a [`Kind`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Node {
    /// A field not given (missing, or `null` where that is allowed).
    #[default]
    Absent,
    Str(String),
    U32(u32),
    Bool(bool),
    Int(i64),
    List(Vec<Node>),
    /// An object's fields, in the shape's order.
    Obj(Vec<Node>),
}

impl Node {
    /// The string, or `""` for any other node.
    pub fn into_string(self) -> String {
        match self {
            Node::Str(s) => s,
            _ => String::new(),
        }
    }

    /// The number, if this is one.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Node::U32(n) => Some(*n),
            _ => None,
        }
    }

    /// The boolean, `false` for any other node.
    pub fn is_true(&self) -> bool {
        matches!(self, Node::Bool(true))
    }

    /// The list's items (none for any other node).
    pub fn into_list(self) -> Vec<Node> {
        match self {
            Node::List(items) => items,
            _ => Vec::new(),
        }
    }

    /// An object's field nodes in shape order (`n` absent ones for any other node).
    pub fn into_fields<const N: usize>(self) -> [Node; N] {
        let mut out: [Node; N] = core::array::from_fn(|_| Node::Absent);
        if let Node::Obj(fields) = self {
            for (slot, field) in out.iter_mut().zip(fields) {
                *slot = field;
            }
        }
        out
    }
}

/// `parent.key` (or `key` at the top).
fn path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.into()
    } else {
        format!("{parent}.{key}")
    }
}

/// `problem` of the value at `at` (a JS path), as an error at the reader's position.
fn fail<T>(r: &Reader, at: &str, problem: &str) -> JsonResult<T> {
    let mut e = r.error::<T>(false, String::from(problem));
    if let Err(e) = &mut e {
        e.path = Some(at.into());
    }
    e
}

/// The error for a value of the wrong type.
fn expected<T>(r: &Reader, at: &str, what: &str, found: &Value) -> JsonResult<T> {
    fail(r, at, &format!("expected {what}, found {}", found.kind()))
}

/// Reads one whole JSON text (nothing after the value) against `kind`.
pub(crate) fn read_text(text: &str, kind: &Kind) -> JsonResult<Node> {
    let mut r = Reader::new(text);
    let node = read(&mut r, kind, "", Presence::Required)?;
    r.end()?;
    Ok(node)
}

/// Reads the next value against `kind`; `at` names it in errors.
pub(crate) fn read(r: &mut Reader, kind: &Kind, at: &str, presence: Presence) -> JsonResult<Node> {
    let value = r.value()?;
    if value == Value::Null && presence == Presence::Optional {
        return Ok(Node::Absent);
    }
    match (kind, value) {
        (Kind::Str, Value::String(s)) => Ok(Node::Str(s.into_owned())),
        (Kind::Bool, Value::Bool(b)) => Ok(Node::Bool(b)),
        (Kind::U32, Value::Number(n)) => match n.to_u32() {
            Ok(n) => Ok(Node::U32(n)),
            Err(_) => fail(r, at, "expected a whole number from 0 to 4294967295"),
        },
        (Kind::IntOrStr, Value::String(s)) => Ok(Node::Str(s.into_owned())),
        (Kind::IntOrStr, Value::Number(n)) => match n.to_i64() {
            Ok(n) => Ok(Node::Int(n)),
            Err(_) => fail(r, at, "expected a 64-bit whole number"),
        },
        (Kind::List(item), Value::Array) => {
            let mut items = Vec::new();
            while r.next_element()? {
                let at = format!("{at}[{}]", items.len());
                items.push(read(r, item, &at, Presence::Required)?);
            }
            Ok(Node::List(items))
        }
        (Kind::Obj(shape), Value::Object) => read_object(r, shape, at),
        (kind, value) => {
            let what = match kind {
                Kind::Str => "a string",
                Kind::U32 => "a whole number",
                Kind::Bool => "a boolean",
                Kind::IntOrStr => "a number or a string",
                Kind::List(_) => "an array",
                Kind::Obj(_) => "an object",
            };
            expected(r, at, what, &value)
        }
    }
}

/// An object's members after its `{`, against `shape`.
fn read_object(r: &mut Reader, shape: &Shape, at: &str) -> JsonResult<Node> {
    let mut slots: Vec<Node> = shape.fields.iter().map(|_| Node::Absent).collect();
    let mut seen = vec![false; shape.fields.len()];
    while let Some(key) = r.next_key()? {
        match shape.fields.iter().position(|f| f.name == key) {
            Some(i) => {
                let field = &shape.fields[i];
                slots[i] = read(r, &field.kind, &path(at, &key), field.presence)?;
                seen[i] = true;
            }
            None if shape.deny_unknown => {
                return fail(r, &path(at, &key), "unknown field");
            }
            None => r.skip()?,
        }
    }
    for (field, seen) in shape.fields.iter().zip(&seen) {
        if field.presence == Presence::Required && !seen {
            return fail(r, &path(at, field.name), "missing (required)");
        }
    }
    Ok(Node::Obj(slots))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INNER: Shape = Shape {
        fields: &[Field {
            name: "x",
            kind: Kind::U32,
            presence: Presence::Required,
        }],
        deny_unknown: true,
    };
    const OUTER: Shape = Shape {
        fields: &[
            Field {
                name: "s",
                kind: Kind::Str,
                presence: Presence::Required,
            },
            Field {
                name: "o",
                kind: Kind::Obj(&INNER),
                presence: Presence::Optional,
            },
            Field {
                name: "l",
                kind: Kind::List(&Kind::Bool),
                presence: Presence::Optional,
            },
        ],
        deny_unknown: false,
    };

    fn read_outer(text: &str) -> Result<Node, String> {
        read_text(text, &Kind::Obj(&OUTER)).map_err(|e| e.describe())
    }

    #[test]
    fn reads_fields_in_shape_order() {
        assert_eq!(
            read_outer(r#"{"l":[true,false],"extra":[1,{}],"o":{"x":7},"s":"v"}"#),
            Ok(Node::Obj(vec![
                Node::Str("v".into()),
                Node::Obj(vec![Node::U32(7)]),
                Node::List(vec![Node::Bool(true), Node::Bool(false)]),
            ]))
        );
        assert_eq!(
            read_outer(r#"{"s":"v","o":null,"l":null}"#),
            Ok(Node::Obj(vec![
                Node::Str("v".into()),
                Node::Absent,
                Node::Absent
            ]))
        );
    }

    #[test]
    fn names_what_does_not_fit() {
        for (text, message) in [
            (r#"{}"#, "s: missing (required)"),
            (r#"{"s":null}"#, "s: expected a string, found null"),
            (r#"{"s":"v","o":{"y":1}}"#, "o.y: unknown field"),
            (
                r#"{"s":"v","o":{"x":null}}"#,
                "o.x: expected a whole number, found null",
            ),
            (
                r#"{"s":"v","o":{"x":-1}}"#,
                "o.x: expected a whole number from 0",
            ),
            (r#"{"s":"v","o":{}}"#, "o.x: missing (required)"),
            (
                r#"{"s":"v","l":["c"]}"#,
                "l[0]: expected a boolean, found a string",
            ),
            (r#"[]"#, "value: expected an object, found an array"),
        ] {
            let got = read_outer(text);
            assert!(
                got.as_ref().is_err_and(|e| e.starts_with(message)),
                "{text}: {got:?}"
            );
        }
    }
}
