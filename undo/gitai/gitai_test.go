package gitai_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/undo/gitai"
)

// The standard's three published complete examples (testdata/SOURCES.md)
// parse, with every key routed to its record, and render back: the
// sessions and mixed examples byte for byte, the legacy one (which leaves
// out humans and sessions) to a note that parses the same.
func TestSpecExamplesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		file  string
		exact bool
		// who is path:line=key/tool/model of a few lines.
		who map[string]string
	}{
		{"spec-sessions.note", true, map[string]string{
			"src/main.rs:1": "s_c9883b05a2487d/cursor/claude-sonnet-4-5-20250514", "src/main.rs:25": "s_c9883b05a2487d/cursor/claude-sonnet-4-5-20250514",
			"src/main.rs:42": "h_31dce776f88375 human Developer <dev@example.com>", "src/main.rs:11": "",
			"src/lib.rs:50": "s_e7f2a90b31cc48/claude/claude-sonnet-4-5-20250514", "src/lib.rs:51": ""}},
		{"spec-legacy.note", false, map[string]string{
			"src/main.rs:30": "ef0b5678ef0b5678/cursor/claude-3-sonnet", "src/lib.rs:1": "abcd1234abcd1234/cursor/claude-4.5-opus"}},
		{"spec-mixed.note", true, map[string]string{
			"src/main.rs:10": "s_c9883b05a2487d/claude/claude-sonnet-4-5-20250514", "src/main.rs:15": "h_31dce776f88375 human Developer <dev@example.com>",
			"src/lib.rs:50": "abcd1234abcd1234/cursor/gpt-4"}},
	} {
		raw, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		n, err := gitai.Parse(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if n.Meta.BaseCommitSHA != "7734793b756b3921c88db5375a8c156e9532447b" || n.Meta.SchemaVersion != gitai.SchemaVersion {
			t.Fatalf("%s: metadata %+v", tc.file, n.Meta)
		}
		for at, want := range tc.who {
			path, line, _ := strings.Cut(at, ":")
			var ln int
			for _, c := range line {
				ln = ln*10 + int(c-'0')
			}
			got := ""
			if a, ok := n.LineAuthors(path, 1000)[ln]; ok {
				if !a.Known {
					t.Fatalf("%s: %s: key %s has no record", tc.file, at, a.Key)
				}
				if a.Human {
					got = a.Session + " human " + a.HumanAuthor
				} else {
					got = a.Session + "/" + a.Agent.Tool + "/" + a.Agent.Model
				}
			}
			if got != want {
				t.Errorf("%s: %s: %q, want %q", tc.file, at, got, want)
			}
		}
		out, err := n.Render()
		if err != nil {
			t.Fatal(err)
		}
		if tc.exact && out != string(raw) {
			t.Errorf("%s: render differs:\n%s\nwant:\n%s", tc.file, out, raw)
		}
		again, err := gitai.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		if again.Meta.Humans == nil {
			again.Meta.Humans = n.Meta.Humans
		}
		if len(n.Meta.Humans) == 0 && len(again.Meta.Humans) == 0 {
			again.Meta.Humans, n.Meta.Humans = nil, nil
		}
		if len(n.Meta.Sessions) == 0 && len(again.Meta.Sessions) == 0 {
			again.Meta.Sessions, n.Meta.Sessions = nil, nil
		}
		if !reflect.DeepEqual(again, n) {
			t.Errorf("%s: parse(render(note)) differs:\n%+v\n%+v", tc.file, again, n)
		}
	}
}

func TestRanges(t *testing.T) {
	rs := gitai.Ranges([]int{9, 1, 2, 3, 7, 3, 10, 12})
	if got := gitai.FormatRanges(rs); got != "1-3,7,9-10,12" {
		t.Fatalf("FormatRanges = %q", got)
	}
	back, err := gitai.ParseRanges("1-3,7,9-10,12")
	if err != nil || !reflect.DeepEqual(back, rs) {
		t.Fatalf("ParseRanges = %v %v", back, err)
	}
	for _, bad := range []string{"", "0", "3-1", "1,,2", "1-", "-2", "a", "1 -2", "+1"} {
		if _, err := gitai.ParseRanges(bad); !errors.Is(err, gitai.ErrFormat) {
			t.Errorf("ParseRanges(%q) = %v, want ErrFormat", bad, err)
		}
	}
}

// Notes that are not v3 authorship logs are refused, naming what is wrong.
func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ note, want string }{
		{"src/a.go\n  k 1\n", "no divider"},
		{"  k 1\n---\n{\"schema_version\":\"authorship/3.0.0\"}", "before any file path"},
		{"a\n k 1\n---\n{\"schema_version\":\"authorship/3.0.0\"}", "not by two spaces"},
		{"a\n  k\n---\n{\"schema_version\":\"authorship/3.0.0\"}", "<key> <line ranges>"},
		{"a\n  k 1\n---\n{\"schema_version\":\"authorship/2.0.0\"}", "schema_version"},
		{"a\n  k 1\n---\nnot json", "metadata"},
	} {
		_, err := gitai.Parse(tc.note)
		if !errors.Is(err, gitai.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want ErrFormat naming %q", tc.note, err, tc.want)
		}
	}
}

// Paths with whitespace are quoted, as the standard says.
func TestRenderQuotesPaths(t *testing.T) {
	n := gitai.Note{Files: []gitai.File{{Path: "src/my file.rs", Entries: []gitai.Entry{{Key: "s_0123456789abcd::t_0123456789abcd", Ranges: []gitai.Range{{1, 2}}}}}},
		Meta: gitai.Metadata{SchemaVersion: gitai.SchemaVersion, BaseCommitSHA: "abc"}}
	out, err := n.Render()
	if err != nil {
		t.Fatal(err)
	}
	want := "\"src/my file.rs\"\n  s_0123456789abcd::t_0123456789abcd 1-2\n---\n{\n  \"schema_version\": \"authorship/3.0.0\",\n  \"base_commit_sha\": \"abc\",\n  \"prompts\": {},\n  \"humans\": {},\n  \"sessions\": {}\n}\n"
	if out != want {
		t.Fatalf("render:\n%s\nwant:\n%s", out, want)
	}
	back, err := gitai.Parse(out)
	if err != nil || back.Files[0].Path != "src/my file.rs" {
		t.Fatalf("parse back: %v %+v", err, back)
	}
	n.Files[0].Path = "bad\nname"
	if _, err := n.Render(); !errors.Is(err, gitai.ErrFormat) {
		t.Fatalf("a path with a newline: %v", err)
	}
}
