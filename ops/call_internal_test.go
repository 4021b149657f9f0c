package ops

import (
	"encoding/json"
	"strings"
	"testing"
)

// takeDryRun blanks the member and one comma beside it, wherever it is,
// so that what is left parses as the call without it, at the same offsets
// (the expected texts here show a run of blanks as one).
func TestTakeDryRun(t *testing.T) {
	for _, tc := range []struct {
		name, args, rest string
		dry              bool
		err              string
	}{
		{name: "absent", args: `{"a": 1}`, rest: `{"a": 1}`},
		{name: "only", args: `{"dry_run": true}`, rest: `{ }`, dry: true},
		{name: "first", args: `{"dry_run": true, "a": 1}`, rest: `{ "a": 1}`, dry: true},
		{name: "last", args: `{"a": 1, "dry_run": true}`, rest: `{"a": 1 }`, dry: true},
		{name: "middle", args: `{"a": 1,"dry_run":true , "b": 2}`, rest: `{"a": 1, "b": 2}`, dry: true},
		{name: "false", args: `{"a": 1, "dry_run": false}`, rest: `{"a": 1 }`},
		{name: "null", args: `{"dry_run": null, "a": 1}`, rest: `{ "a": 1}`},
		{name: "escaped key", args: `{"dry\u005frun": true}`, rest: `{ }`, dry: true},
		{name: "nested is the dialect's", args: `{"edits": [{"dry_run": true}]}`, rest: `{"edits": [{"dry_run": true}]}`},
		{name: "not an object", args: `[1]`, rest: `[1]`},
		{name: "malformed after it", args: `{"dry_run": true, "a": }`, rest: `{ "a": }`, dry: true},
		{name: "twice", args: `{"dry_run": true, "dry_run": false}`, err: `"dry_run" is given more than once`},
		{name: "not a boolean", args: `{"dry_run": "yes"}`, err: `"dry_run" must be true or false, got "yes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest, dry, err := takeDryRun([]byte(tc.args))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			// Compared with runs of blanks as one: the test says what is
			// left, the length check that offsets are kept.
			squeeze := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			if err != nil || squeeze(string(rest)) != squeeze(tc.rest) || dry != tc.dry {
				t.Fatalf("got %q %v %v, want %q %v", rest, dry, err, tc.rest, tc.dry)
			}
			if len(rest) != len(tc.args) {
				t.Fatalf("offsets moved: %d bytes, was %d", len(rest), len(tc.args))
			}
		})
	}
}

// The schema with dry_run is the registered one with one property more,
// still valid JSON, every other byte kept.
func TestWithDryRunKeepsTheSchema(t *testing.T) {
	for _, tool := range registry {
		s, ok := withDryRun(tool.Schema)
		if !ok {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("%s: %v\n%s", tool.Name, err, s)
		}
		i := strings.Index(s, `,`+"\n    "+dryRunProperty)
		if i < 0 || strings.TrimRight(tool.Schema[:i], " \n") != s[:i] {
			t.Fatalf("%s: dry_run not added after the other properties:\n%s", tool.Name, s)
		}
	}
	if _, ok := withDryRun(`{"type": "object", "properties": {"dry_run": {"type": "boolean"}}}`); ok {
		t.Fatal("a schema that declares dry_run itself got it again")
	}
}

// TestShellUnescape pins how a path argument reads as one shell word.
func TestShellUnescape(t *testing.T) {
	tests := []struct {
		arg, want string
		ok        bool
	}{
		{`my\ file.txt`, "my file.txt", true},
		{`'my file.txt'`, "my file.txt", true},
		{`"my file.txt"`, "my file.txt", true},
		{`dir/'a b'/c.txt`, "dir/a b/c.txt", true},
		{`a\(1\).txt`, "a(1).txt", true},
		{`"say \"hi\".txt"`, `say "hi".txt`, true},
		{`"a\b.txt"`, `a\b.txt`, true}, // in double quotes \b stays
		{`dir\file.txt`, "", false},    // \f is no shell escape: the name may have a backslash
		{`plain.txt`, "", false},       // nothing to unquote
		{`my file.txt`, "", false},     // a blank outside quotes: not one word
		{`'unclosed.txt`, "", false},   // not a well-formed word
		{`"unclosed.txt`, "", false},   //
		{`trailing\`, "", false},       //
		{`''`, "", false},              // the empty word names nothing
		{`C:\\Users\\x.txt`, `C:\Users\x.txt`, true},
	}
	for _, tt := range tests {
		got, ok := shellUnescape(tt.arg)
		if got != tt.want || ok != tt.ok {
			t.Errorf("shellUnescape(%q) = %q, %v; want %q, %v", tt.arg, got, ok, tt.want, tt.ok)
		}
	}
}
