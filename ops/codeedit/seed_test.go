package codeedit

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/jsonargs"
	"github.com/git-edit/git-edit/ops/text"
)

// The seed's examples, through Parse and Plan, with exact expected bytes.

// runArgs parses raw and plans every edit in order against files, applying
// each edit to its file's current bytes.
func runArgs(t *testing.T, raw string, files map[string]string) (map[string]string, []Planned) {
	t.Helper()
	a, err := Parse([]byte(raw))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	var results []Planned
	for _, e := range a.Edits {
		content, exists := files[e.FilePath]
		r, err := Plan(e, []byte(content), exists)
		if err != nil {
			t.Fatalf("Plan %s: %v", e.FilePath, err)
		}
		out, err := text.ApplyEdits([]byte(content), r.Edits)
		if err != nil {
			t.Fatalf("ApplyEdits: %v", err)
		}
		files[e.FilePath] = string(out)
		results = append(results, r)
	}
	return files, results
}

func TestSeedSingleEdit(t *testing.T) {
	raw := `{
        "file_path": "src/utils.py",
        "search": "import os\nimport sys\n",
        "replace": "import os\nimport sys\nimport json\n\ndef helper():\n    return \"help\"\n"
    }`
	files, rs := runArgs(t, raw, map[string]string{
		"src/utils.py": "import os\nimport sys\n\n\ndef main():\n    print(sys.argv)\n",
	})
	want := "import os\nimport sys\nimport json\n\ndef helper():\n    return \"help\"\n\n\ndef main():\n    print(sys.argv)\n"
	check(t, files["src/utils.py"], rs[0], want, StageExact, 1)
	// Only the new lines are inserted: the two import lines are not rewritten.
	if len(rs[0].Edits) != 1 || rs[0].Edits[0].Start != rs[0].Edits[0].End {
		t.Errorf("want one pure insertion, got %+v", rs[0].Edits)
	}
}

func TestSeedMultipleEdits(t *testing.T) {
	raw := `{
        "edits": [
            {
                "file_path": "config.yaml",
                "search": "debug: false\n",
                "replace": "debug: true\n"
            },
            {
                "file_path": "main.py",
                "search": "def main():\n    print(\"Hello\")",
                "replace": "def main():\n    print(\"Hello, world!\")"
            }
        ]
    }`
	a, err := Parse([]byte(raw))
	if err != nil || !a.Multi || len(a.Edits) != 2 {
		t.Fatalf("Parse: %+v, %v", a, err)
	}
	files, rs := runArgs(t, raw, map[string]string{
		"config.yaml": "name: demo\ndebug: false\nport: 8080\n",
		"main.py":     "def main():\n    print(\"Hello\")\n\n\nif __name__ == \"__main__\":\n    main()\n",
	})
	check(t, files["config.yaml"], rs[0], "name: demo\ndebug: true\nport: 8080\n", StageExact, 2)
	check(t, files["main.py"], rs[1], "def main():\n    print(\"Hello, world!\")\n\n\nif __name__ == \"__main__\":\n    main()\n", StageExact, 1)
}

func TestSeedElision(t *testing.T) {
	raw := `{
        "file_path": "src/processor.py",
        "search": "def process(data):\n    # step 1\n    clean = data.strip()\n    ...\n    # step 3\n    return result\n",
        "replace": "def process(data):\n    # step 1\n    clean = data.strip()\n    # step 2 (new)\n    validated = validate(clean)\n    ...\n    # step 3\n    return result\n"
    }`
	content := "import json\n\n" +
		"def process(data):\n" +
		"    # step 1\n" +
		"    clean = data.strip()\n" +
		"    # step 2\n" +
		"    parsed = json.loads(clean)\n" +
		"    result = transform(parsed)\n" +
		"    # step 3\n" +
		"    return result\n"
	want := "import json\n\n" +
		"def process(data):\n" +
		"    # step 1\n" +
		"    clean = data.strip()\n" +
		"    # step 2 (new)\n" +
		"    validated = validate(clean)\n" +
		"    # step 2\n" +
		"    parsed = json.loads(clean)\n" +
		"    result = transform(parsed)\n" +
		"    # step 3\n" +
		"    return result\n"
	files, rs := runArgs(t, raw, map[string]string{"src/processor.py": content})
	check(t, files["src/processor.py"], rs[0], want, StageElision, 3)
	if rs[0].EndLine != 10 {
		t.Errorf("EndLine %d, want 10", rs[0].EndLine)
	}
}

// The seed shows arguments inside an envelope; the envelope is refused with
// a message saying what to send instead.
func TestSeedEnvelopeRefused(t *testing.T) {
	raw := `{
        "thoughts": ["I need to add a new function to utils.py."],
        "headline": "Add helper function to utils.py",
        "tool_name": "code_edit",
        "tool_args": {"file_path": "src/utils.py", "search": "import os\n", "replace": "import os\nimport json\n"}
    }`
	_, err := Parse([]byte(raw))
	if !errors.Is(err, jsonargs.ErrInvalid) || !strings.Contains(err.Error(), "send the contents of tool_args") ||
		!strings.Contains(err.Error(), `unknown field "tool_args"`) {
		t.Fatalf("got %v", err)
	}
}
