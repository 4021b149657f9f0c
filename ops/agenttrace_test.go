package ops_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// traceSchema compiles the published Agent Trace schema (testdata/
// agenttrace/SOURCE.md says where it comes from), asserting formats
// (uuid, date-time) as well as patterns.
func traceSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/agenttrace/trace-record.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("trace-record.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("trace-record.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(sch *jsonschema.Schema, record []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(record))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

func hashOf(lines ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n") + "\n"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Issue 26: the Agent Trace record of a commit holding two sessions'
// edits and the person's line groups the added lines by contributor,
// with the model of each session and the content hash of each range, and
// validates against the published schema; records that break the schema
// (the spec's own "0.1.0" version, a missing field, a wrong contributor
// type) fail the same validation, so the check can fail.
func TestAgentTraceValidatesAgainstSchema(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "p1\np2\n"})
	edit := func(s, model, old, new string) {
		t.Helper()
		e, err := ops.Open(ops.Options{Root: dir, Session: s})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		ctx := session.WithOrigin(context.Background(), session.Origin{Model: model})
		args, _ := json.Marshal(map[string]string{"command": "str_replace", "path": "f.txt", "old_str": old, "new_str": new})
		if res, err := e.Call(ctx, "text_editor", args); err != nil || !res.OK {
			t.Fatalf("edit: %v %s", err, res.Text)
		}
	}
	edit("s1", "anthropic/claude-sonnet-4-5", "p1\n", "p1\na1\na2\n")
	edit("s2", "", "p2\n", "p2\nb1\n")
	if err := os.WriteFile(dir+"/f.txt", []byte("p1\na1\na2\np2\nb1\nh1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "commit", "-qam", "work")
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	when := strings.TrimSpace(gittest.Git(t, dir, "show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ", "HEAD"))

	e, err := ops.Open(ops.Options{Root: dir, Session: "reader"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	recs, err := e.AgentTrace(context.Background(), "HEAD", "9.9.9")
	if err != nil || len(recs) != 1 {
		t.Fatalf("AgentTrace: %v %d records", err, len(recs))
	}
	got, err := json.Marshal(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":"0.1","id":"` + recs[0].ID + `","timestamp":"` + when + `","vcs":{"type":"git","revision":"` + head + `"},"tool":{"name":"git-edit","version":"9.9.9"},` +
		`"files":[{"path":"f.txt","conversations":[` +
		`{"contributor":{"type":"ai","model_id":"anthropic/claude-sonnet-4-5"},"ranges":[{"start_line":2,"end_line":3,"content_hash":"` + hashOf("a1", "a2") + `"}]},` +
		`{"contributor":{"type":"ai"},"ranges":[{"start_line":5,"end_line":5,"content_hash":"` + hashOf("b1") + `"}]},` +
		`{"contributor":{"type":"human"},"ranges":[{"start_line":6,"end_line":6,"content_hash":"` + hashOf("h1") + `"}]}]}],` +
		`"metadata":{"dev.git-edit":{"sessions":["s1","s2",""]}}}`
	if string(got) != want {
		t.Fatalf("record:\n%s\nwant:\n%s", got, want)
	}
	// The id is the same each time the commit's record is made.
	again, err := e.AgentTrace(context.Background(), "HEAD~1..HEAD", "9.9.9")
	if err != nil || len(again) != 1 || again[0].ID != recs[0].ID {
		t.Fatalf("again: %v %+v", err, again)
	}
	sch := traceSchema(t)
	if err := validate(sch, got); err != nil {
		t.Fatalf("the record does not validate: %v", err)
	}
	for name, bad := range map[string]string{
		"the spec's own 0.1.0": strings.Replace(string(got), `"version":"0.1"`, `"version":"0.1.0"`, 1),
		"no files":             strings.Replace(string(got), `"files":`, `"filez":`, 1),
		"contributor robot":    strings.Replace(string(got), `"type":"human"`, `"type":"robot"`, 1),
		"line 0":               strings.Replace(string(got), `"start_line":2`, `"start_line":0`, 1),
		"not a uuid":           strings.Replace(string(got), recs[0].ID, "commit-1", 1),
		"local time":           strings.Replace(string(got), when, strings.TrimSuffix(when, "Z")+"+01:00", 1),
	} {
		if bad == string(got) {
			t.Fatalf("%s: the replacement changed nothing", name)
		}
		if err := validate(sch, []byte(bad)); err == nil {
			t.Errorf("%s: validated, want a schema error", name)
		}
	}
}
