//! A family's own parts of a game (its variant, its setup, its moves) as
//! XML, through the serde derives of the family's types: the same
//! definition that `json` dumps. `xml.rs` writes and reads the parts every
//! game has; what a family adds comes from here, field by field, so that a
//! new family adds only its types.
//!
//! The mapping, from the serde data model:
//! - a struct or map is an element; its fields that are values (numbers,
//!   booleans, strings, unit variants) are attributes, its fields that are
//!   structs are child elements named after the field;
//! - a list of values is one attribute, the values separated by a space (an
//!   empty list is an empty attribute); a list of structs repeats the child
//!   element, one per item;
//! - an enum variant with content (`Move::Chess(..)`, `Ply::Move(..)`) is a
//!   child element (or attribute, for a value) named after the variant; a
//!   unit variant is its name, as a value or as an element's text;
//! - a value where an element stands (a setup's FEN) is the element's text;
//! - `None` is an attribute or element left out;
//! - `char` names no field: `<char code="001B"/>` is a character of the
//!   text around it (see [`push_text`]).
//!
//! Reading goes back through the same derives ([`De`]): a field is looked
//! up among the element's attributes and children by name, and a value is
//! parsed as the type asks for it. Where serde asks without a type (an
//! internally tagged enum: [`crate::family::Variant`]), a value that reads
//! as `true`, `false` or an integer is one.

use std::borrow::Cow;
use std::fmt::{self, Display, Write as _};

use serde::de::{self, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// What went wrong mapping a value to XML or back.
#[derive(Debug)]
pub struct Error(pub String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

/// A value of the serde data model, as XML places it.
#[derive(Debug)]
pub enum Value {
    /// A number, boolean, string or unit variant, as text.
    Text(String),
    /// A sequence.
    List(Vec<Value>),
    /// A struct, map or variant with content: named fields in order.
    Map(Vec<(Cow<'static, str>, Value)>),
    /// `None` or a unit: nothing is written.
    Absent,
}

/// A value of the serde data model, from anything serializable.
pub fn to_value<T: Serialize + ?Sized>(v: &T) -> Result<Value, Error> {
    v.serialize(Ser)
}

// ---------------------------------------------------------------- writing

pub use crate::ir::unholdable;

/// Appends text as element content: `&`, `<` and `>` escaped, a carriage
/// return as `&#13;` (a parser reads a raw one as a line feed), and a
/// character XML cannot hold as the element `<char code="001B"/>`.
pub fn push_text(out: &mut String, s: &str) {
    let mut from = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '\r' => "&#13;",
            c if unholdable(c) => "",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        from = i + c.len_utf8();
        if esc.is_empty() {
            let _ = write!(out, "<char code=\"{:04X}\"/>", c as u32);
        } else {
            out.push_str(esc);
        }
    }
    out.push_str(&s[from..]);
}

/// Appends ` name="value"`, the value escaped so that a parser reads it
/// back unchanged (tab, line feed and carriage return as character
/// references, which attribute normalization keeps); an error for a
/// character XML cannot hold, which an attribute has no way to write.
pub fn push_attr(out: &mut String, name: &str, value: &str) -> Result<(), Error> {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    let mut from = 0;
    for (i, c) in value.char_indices() {
        let esc = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\t' => "&#9;",
            '\n' => "&#10;",
            '\r' => "&#13;",
            c if unholdable(c) => {
                return Err(Error(format!(
                    "the {name} {} holds U+{:04X}, which an XML attribute cannot hold",
                    crate::error::quote(value),
                    c as u32
                )))
            }
            _ => continue,
        };
        out.push_str(&value[from..i]);
        from = i + c.len_utf8();
        out.push_str(esc);
    }
    out.push_str(&value[from..]);
    out.push('"');
    Ok(())
}

/// True for a name kifu writes as an element or attribute name.
fn is_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn text_of(v: &Value) -> Option<&str> {
    match v {
        Value::Text(s) => Some(s),
        _ => None,
    }
}

/// Appends the element `name` holding a value (nothing for an absent one).
pub fn push_element(out: &mut String, name: &str, v: &Value) -> Result<(), Error> {
    if !is_name(name) || name == "char" {
        return Err(Error(format!(
            "{name} cannot name an XML element",
            name = crate::error::quote(name)
        )));
    }
    match v {
        Value::Absent => Ok(()),
        Value::Text(s) => {
            let _ = write!(out, "<{name}>");
            push_text(out, s);
            let _ = write!(out, "</{name}>");
            Ok(())
        }
        Value::List(_) => Err(Error(format!("a list cannot be the element <{name}>"))),
        Value::Map(fields) => {
            out.push('<');
            out.push_str(name);
            push_attrs(out, fields)?;
            let mut open = false;
            for (k, v) in fields.iter().filter(|(_, v)| !is_attr(v)) {
                if !open {
                    out.push('>');
                    open = true;
                }
                push_child(out, k, v)?;
            }
            if open {
                let _ = write!(out, "</{name}>");
            } else {
                out.push_str("/>");
            }
            Ok(())
        }
    }
}

/// Appends the fields of a map each as an element, values too (an enum's
/// variant: `<chess>..</chess>` for a chess move, `<tafl>resign</tafl>`).
pub fn push_children(out: &mut String, v: &Value) -> Result<(), Error> {
    match v {
        Value::Map(fields) => fields.iter().try_for_each(|(k, v)| push_child(out, k, v)),
        Value::Absent => Ok(()),
        _ => Err(Error("a value where elements stand".to_string())),
    }
}

/// Whether a field is written as an attribute: a value, or a list of
/// values (every empty list too).
fn is_attr(v: &Value) -> bool {
    match v {
        Value::Text(_) => true,
        Value::List(items) => items.iter().all(|i| matches!(i, Value::Text(_))),
        Value::Map(_) | Value::Absent => false,
    }
}

fn push_attrs(out: &mut String, fields: &[(Cow<'static, str>, Value)]) -> Result<(), Error> {
    for (k, v) in fields {
        if !is_name(k) {
            return Err(Error(format!(
                "{k} cannot name an XML attribute",
                k = crate::error::quote(k)
            )));
        }
        match v {
            Value::Text(s) => push_attr(out, k, s)?,
            Value::List(items) if is_attr(v) => {
                let mut joined = String::new();
                for s in items.iter().filter_map(text_of) {
                    if s.is_empty() || s.contains(|c: char| c.is_ascii_whitespace()) {
                        return Err(Error(format!(
                            "the list {k} holds {s}, which a space-separated list cannot",
                            s = crate::error::quote(s)
                        )));
                    }
                    if !joined.is_empty() {
                        joined.push(' ');
                    }
                    joined.push_str(s);
                }
                push_attr(out, k, &joined)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn push_child(out: &mut String, name: &str, v: &Value) -> Result<(), Error> {
    match v {
        Value::List(items) => items.iter().try_for_each(|item| match item {
            Value::List(_) | Value::Absent => Err(Error(format!(
                "the list {name} holds an item XML cannot place"
            ))),
            _ => push_element(out, name, item),
        }),
        _ => push_element(out, name, v),
    }
}

// ------------------------------------------------------------ serializing

struct Ser;

/// Collects a sequence.
pub struct SeqSer(Vec<Value>);

/// Collects a map, key by key.
pub struct MapSer {
    fields: Vec<(Cow<'static, str>, Value)>,
    key: Option<String>,
}

/// Collects a struct.
pub struct StructSer(Vec<(Cow<'static, str>, Value)>);

/// Collects a tuple or struct variant, to wrap it in its variant's name.
pub struct VariantSer<T> {
    name: &'static str,
    inner: T,
}

fn text(s: impl ToString) -> Result<Value, Error> {
    Ok(Value::Text(s.to_string()))
}

fn tagged(name: &'static str, v: Value) -> Value {
    Value::Map(vec![(Cow::Borrowed(name), v)])
}

impl ser::Serializer for Ser {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSer;
    type SerializeTuple = SeqSer;
    type SerializeTupleStruct = SeqSer;
    type SerializeTupleVariant = VariantSer<SeqSer>;
    type SerializeMap = MapSer;
    type SerializeStruct = StructSer;
    type SerializeStructVariant = VariantSer<StructSer>;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        text(v)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Value, Error> {
        Err(Error("bytes have no XML form".to_string()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Absent)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, Error> {
        v.serialize(Ser)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Absent)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, Error> {
        Ok(Value::Absent)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        text(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        v.serialize(Ser)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        Ok(tagged(variant, v.serialize(Ser)?))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer, Error> {
        Ok(SeqSer(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<SeqSer>, Error> {
        Ok(VariantSer {
            name: variant,
            inner: SeqSer(Vec::with_capacity(len)),
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapSer, Error> {
        Ok(MapSer {
            fields: Vec::with_capacity(len.unwrap_or(0)),
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<StructSer, Error> {
        Ok(StructSer(Vec::with_capacity(len)))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<StructSer>, Error> {
        Ok(VariantSer {
            name: variant,
            inner: StructSer(Vec::with_capacity(len)),
        })
    }
}

impl ser::SerializeSeq for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.0.push(v.serialize(Ser)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::List(self.0))
    }
}

impl ser::SerializeTuple for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for VariantSer<SeqSer> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(&mut self.inner, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(tagged(self.name, Value::List(self.inner.0)))
    }
}

impl ser::SerializeMap for MapSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Error> {
        match k.serialize(Ser)? {
            Value::Text(s) => {
                self.key = Some(s);
                Ok(())
            }
            _ => Err(Error("a map key that is not a value".to_string())),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self.key.take().unwrap_or_default();
        self.fields.push((Cow::Owned(key), v.serialize(Ser)?));
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Map(self.fields))
    }
}

impl ser::SerializeStruct for StructSer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        k: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.0.push((Cow::Borrowed(k), v.serialize(Ser)?));
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Map(self.0))
    }
}

impl ser::SerializeStructVariant for VariantSer<StructSer> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        k: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(&mut self.inner, k, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(tagged(self.name, Value::Map(self.inner.0)))
    }
}

// ---------------------------------------------------------------- reading

/// An element as read: its name, attributes, child elements and text
/// (`<char>` elements are read into the text).
#[derive(Debug, Default)]
pub struct Node {
    /// The element's name.
    pub name: String,
    /// Its attributes, in order, their values unescaped.
    pub attrs: Vec<(String, String)>,
    /// Its child elements, in order.
    pub children: Vec<Node>,
    /// Its character data, unescaped.
    pub text: String,
    /// The byte offset of its start tag in the record.
    pub at: usize,
}

impl Node {
    /// The value of an attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether it holds neither attributes nor child elements.
    fn bare(&self) -> bool {
        self.attrs.is_empty() && self.children.is_empty()
    }
}

/// A deserializer over what XML holds for one field.
#[derive(Debug, Clone)]
pub enum De<'a> {
    /// An attribute's value (or a part of a list).
    Text(&'a str),
    /// One element.
    Node(&'a Node),
    /// The child elements of one name (a list, or one value).
    Nodes(Vec<&'a Node>),
    /// One element that stands for its enum variant: `<chess>..</chess>`
    /// is the variant `chess` of [`crate::family::Move`].
    Tagged(&'a Node),
}

impl<'a> De<'a> {
    /// One element for a value that is not a list.
    fn one(self) -> Result<De<'a>, Error> {
        match self {
            De::Nodes(v) if v.len() == 1 => Ok(De::Node(v[0])),
            De::Nodes(v) => Err(Error(format!(
                "<{}> is repeated where one is expected",
                v.first().map_or("?", |n| n.name.as_str())
            ))),
            other => Ok(other),
        }
    }

    /// The text of a value.
    fn scalar(self) -> Result<&'a str, Error> {
        match self.one()? {
            De::Text(s) => Ok(s),
            De::Node(n) if n.bare() => Ok(&n.text),
            De::Node(n) | De::Tagged(n) => Err(Error(format!(
                "<{}> holds elements or attributes where a value is expected",
                n.name
            ))),
            De::Nodes(_) => unreachable!("one() gives no list"),
        }
    }

    fn parse<T: std::str::FromStr>(self, what: &str) -> Result<T, Error> {
        let s = self.scalar()?;
        s.parse()
            .map_err(|_| Error(format!("{s} is not {what}", s = crate::error::quote(s))))
    }
}

macro_rules! number {
    ($($method:ident $visit:ident $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            v.$visit(self.parse::<$ty>(concat!("a number (", stringify!($ty), ")"))?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for De<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self {
            De::Nodes(ref n) if n.len() > 1 => self.deserialize_seq(v),
            De::Tagged(_) => self.deserialize_map(v),
            _ => match self.one()? {
                De::Node(n) if !n.bare() => visit_map(n, v),
                one => {
                    let s = one.scalar()?;
                    match s {
                        "true" => v.visit_bool(true),
                        "false" => v.visit_bool(false),
                        _ => match (s.parse::<u64>(), s.parse::<i64>()) {
                            (Ok(n), _) => v.visit_u64(n),
                            (_, Ok(n)) => v.visit_i64(n),
                            _ => v.visit_borrowed_str(s),
                        },
                    }
                }
            },
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.scalar()? {
            "true" | "1" => v.visit_bool(true),
            "false" | "0" => v.visit_bool(false),
            s => Err(Error(format!(
                "{s} is not true or false",
                s = crate::error::quote(s)
            ))),
        }
    }

    number!(
        deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64,
        deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64,
        deserialize_f32 visit_f32 f32, deserialize_f64 visit_f64 f64,
        deserialize_char visit_char char
    );

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_borrowed_str(self.scalar()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self {
            De::Text(s) => v.visit_seq(de::value::SeqDeserializer::new(
                s.split_ascii_whitespace().map(De::Text),
            )),
            De::Nodes(nodes) => v.visit_seq(de::value::SeqDeserializer::new(
                nodes.into_iter().map(De::Node),
            )),
            De::Node(n) | De::Tagged(n) => Err(Error(format!(
                "<{}> stands where a list is expected",
                n.name
            ))),
        }
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.one()? {
            De::Node(n) => visit_map(n, v),
            De::Tagged(n) => v.visit_map(de::value::MapDeserializer::new(std::iter::once((
                n.name.as_str(),
                De::Node(n),
            )))),
            De::Text(s) => Err(Error(format!(
                "the value {s} stands where an element is expected",
                s = crate::error::quote(s)
            ))),
            De::Nodes(_) => unreachable!("one() gives no list"),
        }
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        let (name, content) = match self.one()? {
            De::Text(s) => return v.visit_enum(s.into_deserializer()),
            De::Node(n) if n.bare() => return v.visit_enum(n.text.as_str().into_deserializer()),
            De::Tagged(n) => (n.name.as_str(), De::Node(n)),
            De::Node(n) => {
                let mut keys = fields(n);
                match (keys.next(), keys.next()) {
                    (Some(one), None) => one,
                    _ => {
                        return Err(Error(format!(
                            "<{}> must hold exactly one attribute or element, its variant",
                            n.name
                        )))
                    }
                }
            }
            De::Nodes(_) => unreachable!("one() gives no list"),
        };
        v.visit_enum(VariantDe { name, content })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
}

impl<'de> IntoDeserializer<'de, Error> for De<'de> {
    type Deserializer = De<'de>;
    fn into_deserializer(self) -> De<'de> {
        self
    }
}

/// The fields of an element: its attributes in order, then its child
/// elements grouped by name, in the order each name first comes.
fn fields(n: &Node) -> impl Iterator<Item = (&str, De<'_>)> {
    let attrs = n.attrs.iter().map(|(k, v)| (k.as_str(), De::Text(v)));
    let children = n.children.iter().enumerate().filter_map(move |(i, c)| {
        if n.children[..i].iter().any(|p| p.name == c.name) {
            return None;
        }
        let group = n.children[i..]
            .iter()
            .filter(|o| o.name == c.name)
            .collect();
        Some((c.name.as_str(), De::Nodes(group)))
    });
    attrs.chain(children)
}

fn visit_map<'de, V: Visitor<'de>>(n: &'de Node, v: V) -> Result<V::Value, Error> {
    let mut map = de::value::MapDeserializer::new(fields(n));
    let value = v.visit_map(&mut map)?;
    map.end()?;
    Ok(value)
}

/// An enum variant and what it holds.
struct VariantDe<'a> {
    name: &'a str,
    content: De<'a>,
}

impl<'de> de::EnumAccess<'de> for VariantDe<'de> {
    type Error = Error;
    type Variant = De<'de>;
    fn variant_seed<S: de::DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, De<'de>), Error> {
        let name: de::value::BorrowedStrDeserializer<'de, Error> =
            de::value::BorrowedStrDeserializer::new(self.name);
        Ok((seed.deserialize(name)?, self.content))
    }
}

impl<'de> de::VariantAccess<'de> for De<'de> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<S: de::DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self, v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_map(self, v)
    }
}
