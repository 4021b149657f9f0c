package jsonargs

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestDecodeRefusals(t *testing.T) {
	top := Spec{Fields: []string{"command", "path"}, Example: `{"command": "x"}`}
	nested := Spec{In: "arguments", Fields: []string{"file_path"}, Example: `{"file_path": "a.txt"}`}
	cases := []struct {
		spec Spec
		raw  string
		want string
	}{
		{top, ``, `invalid arguments: the arguments are empty; send one JSON object such as {"command": "x"}`},
		{top, `[1]`, `invalid arguments: the arguments must be a JSON object, got an array; send one object such as {"command": "x"}`},
		{top, `{"command":`, `invalid arguments: the arguments are not valid JSON: the object is cut off; send one complete JSON object`},
		{top, `{"command" 1}`, `invalid arguments: the arguments are not valid JSON (expected colon after object key); send one JSON object such as {"command": "x"}`},
		{top, `{"Path": "a"}`, `invalid arguments: unknown field "Path" (did you mean "path"? names are case-sensitive); the accepted fields are "command" and "path"`},
		{top, `{"path": "a", "path": "b"}`, `invalid arguments: "path" is given more than once; send each field once`},
		{top, `{} {}`, `invalid arguments: unexpected data after the JSON object; send exactly one JSON object`},
		{nested, `"x"`, `invalid arguments: "arguments" must be a JSON object, got a string; send one object such as {"file_path": "a.txt"}`},
		{nested, `{"colour": 1}`, `invalid arguments: unknown field "colour" in "arguments"; the accepted fields are "file_path"`},
		{nested, `{"file_path": "a", "file_path": "b"}`, `invalid arguments: "file_path" is given more than once in "arguments"; send each field once`},
	}
	for _, tc := range cases {
		_, err := tc.spec.Decode([]byte(tc.raw))
		if !errors.Is(err, ErrInvalid) || err.Error() != tc.want {
			t.Errorf("Decode(%s):\n got  %v\n want %s", tc.raw, err, tc.want)
		}
	}
}

func TestDecodeDropsNulls(t *testing.T) {
	o, err := Spec{Fields: []string{"a", "b"}}.Decode([]byte(`{"a": null, "b": 2}`))
	if err != nil || o.Has("a") || !o.Has("b") || string(o["b"]) != "2" {
		t.Fatalf("%v %v", o, err)
	}
}

func TestValues(t *testing.T) {
	ints := []struct {
		raw  string
		n    int
		want string
	}{
		{`7`, 7, ""}, {`-3`, -3, ""}, {`3.0`, 3, ""}, {`1e2`, 100, ""},
		{`1.5`, 0, `invalid arguments: "n" must be a whole number, got 1.5`},
		{`"7"`, 0, `invalid arguments: "n" must be a whole number, got a string`},
		{`99999999999999999999`, 0, `invalid arguments: "n" is 99999999999999999999, which is too large to be an offset; use an offset of the file`},
		{`1e400`, 0, `invalid arguments: "n" is 1e400, which is too large to be an offset; use an offset of the file`},
		{`-1e30`, 0, `invalid arguments: "n" is -1e30, which is too large to be an offset; use an offset of the file`},
	}
	for _, tc := range ints {
		n, err := Int("n", json.RawMessage(tc.raw), "an offset")
		if tc.want == "" && (err != nil || n != tc.n) || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("Int(%s) = %d, %v; want %d %q", tc.raw, n, err, tc.n, tc.want)
		}
	}
	if b, err := Bool("b", json.RawMessage(`true`)); !b || err != nil {
		t.Errorf("Bool(true) = %v %v", b, err)
	}
	if _, err := Bool("b", json.RawMessage(`"yes"`)); err == nil || err.Error() != `invalid arguments: "b" must be true or false, got a string` {
		t.Errorf("Bool(\"yes\") = %v", err)
	}
	if _, err := String("s", json.RawMessage(`{}`), "a path"); err == nil || err.Error() != `invalid arguments: "s" must be a string (a path), got an object` {
		t.Errorf("String({}) = %v", err)
	}
	if items, err := Array("a", json.RawMessage(`[1, "x"]`), "a list"); err != nil || len(items) != 2 {
		t.Errorf("Array = %v %v", items, err)
	}
	if _, err := Array("a", json.RawMessage(`5`), "a list of lines"); err == nil || err.Error() != `invalid arguments: "a" must be an array (a list of lines), got a number` {
		t.Errorf("Array(5) = %v", err)
	}
}

func TestLists(t *testing.T) {
	if got := AndList([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Error(got)
	}
	if got := OrList([]string{"a"}); got != "a" {
		t.Error(got)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 409600: "409,600", -1234567: "-1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %s", n, got)
		}
	}
}
