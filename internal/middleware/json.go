package middleware

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/clausewatch/clausewatch/internal/app"
)

// CheckJSON reports what encoding/json would let pass in a request body
// meant for a value of type t (nil: any shape): a duplicate key (json keeps
// the last silently), a key that matches a field's name only when case is
// ignored (json matches it anyway), and anything after the first value. Those
// are invalid app errors naming the field; a syntax error or an empty body is
// the decoder's own error, for the transport to word. Unknown keys and wrong
// types are left to the decoder that follows.
func CheckJSON(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := checkValue(dec, t, ""); err != nil {
		if errors.Is(err, io.EOF) && dec.InputOffset() > 0 {
			return io.ErrUnexpectedEOF // Token's word for a value cut short
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return err
		}
		return &app.Error{Code: app.CodeInvalid, Message: "request body must hold exactly one JSON value",
			Fields: []app.FieldError{{Field: "body", Message: "holds more than one JSON value"}}}
	}
	return nil
}

func checkValue(dec *json.Decoder, t reflect.Type, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch tok {
	case json.Delim('{'):
		var fields map[string]reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = jsonFields(t, map[string]reflect.Type{})
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string)
			field := key
			if path != "" {
				field = path + "." + key
			}
			if seen[key] {
				return invalidField(field, "appears more than once")
			}
			seen[key] = true
			var elem reflect.Type
			switch {
			case fields != nil:
				elem = fields[key]
				if elem == nil && foldMatch(fields, key) {
					return invalidField(field, "is not a known field (field names are case-sensitive)")
				}
			case t != nil && t.Kind() == reflect.Map:
				elem = t.Elem()
			}
			if err := checkValue(dec, elem, field); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := checkValue(dec, elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

// jsonFields maps the JSON names of t's fields, embedded structs' included,
// to their types.
func jsonFields(t reflect.Type, out map[string]reflect.Type) map[string]reflect.Type {
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			jsonFields(f.Type, out)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func foldMatch(fields map[string]reflect.Type, key string) bool {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

func invalidField(field, msg string) error {
	return &app.Error{Code: app.CodeInvalid, Message: "invalid request",
		Fields: []app.FieldError{{Field: app.Echo(field), Message: msg}}}
}

// JSONKind names, with its article, the JSON value a Go type decodes from:
// what a request field "must be" when the decoder refused its value
// (json.UnmarshalTypeError.Type). REST and GraphQL word it alike.
func JSONKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	default:
		return "a number"
	}
}

// DecodeJSON reads data strictly into v, as every transport reads a
// request's JSON (REST bodies, MCP tool arguments): well-formed, one value,
// field names exact, no key twice (CheckJSON), no unknown fields, each
// value of its field's type. A refusal is an invalid app error naming the
// field in words a client knows (never a Go type's name).
func DecodeJSON(data []byte, v any) error {
	if err := CheckJSON(data, reflect.TypeOf(v)); err != nil {
		return jsonError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return jsonError(dec.Decode(v))
}

// jsonError words a decoder's error as an invalid app error.
func jsonError(err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, new(*app.Error)):
		return err
	case errors.As(err, &syn):
		return &app.Error{Code: app.CodeInvalid, Message: "malformed JSON", Fields: []app.FieldError{{Field: "body", Message: "syntax error at byte " + strconv.FormatInt(syn.Offset, 10)}}}
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		msg := "must be " + JSONKind(typ.Type)
		if strings.HasPrefix(typ.Value, "number") && isInteger(typ.Type.Kind()) {
			// A number, but a fraction or past what the field holds.
			msg = "must be a whole number in range"
		}
		return &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: field, Message: msg}}}
	case errors.Is(err, io.EOF):
		return &app.Error{Code: app.CodeInvalid, Message: "request body is empty", Fields: []app.FieldError{{Field: "body", Message: "is required"}}}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &app.Error{Code: app.CodeInvalid, Message: "malformed JSON", Fields: []app.FieldError{{Field: "body", Message: "ends early"}}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &app.Error{Code: app.CodeInvalid, Message: "invalid request", Fields: []app.FieldError{{Field: name, Message: "is not a known field"}}}
	default:
		return &app.Error{Code: app.CodeInvalid, Message: "malformed JSON", Fields: []app.FieldError{{Field: "body", Message: "cannot be read as JSON"}}}
	}
}

func isInteger(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uint64
}
