package exactedit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// numbered returns lines from..to of a lineFile as RenderRead shows them,
// formatted independently with fmt's %6d.
func numbered(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, fmt.Sprintf("%6d\tline %d", i, i))
	}
	return strings.Join(parts, "\n")
}

// lineFile is a file of n lines, line i being "line i".
func lineFile(n int, eol string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d%s", i, eol)
	}
	return b.String()
}

func TestRenderRead(t *testing.T) {
	long := strings.Repeat("é", MaxLineChars+5)
	tests := []struct {
		name, content string
		offset, limit int
		want          string
	}{
		{name: "seed's form", content: "    function calculateTotal(items) {\n        return 0;\n    }\n", offset: 1, limit: 2000,
			want: "     1\t    function calculateTotal(items) {\n     2\t        return 0;\n     3\t    }"},
		{name: "empty file", content: "", offset: 1, limit: 2000, want: "<empty file>"},
		{name: "BOM-only file is empty", content: text.BOM, offset: 1, limit: 2000, want: "<empty file>"},
		{name: "BOM not shown", content: text.BOM + "first\nsecond\n", offset: 1, limit: 2000, want: "     1\tfirst\n     2\tsecond"},
		{name: "CRLF: no \\r shown", content: "a\r\nb\r\n", offset: 1, limit: 2000, want: "     1\ta\n     2\tb"},
		{name: "last line without final newline", content: "a\nlast", offset: 1, limit: 2000, want: "     1\ta\n     2\tlast"},
		{name: "last line is the only one", content: "x", offset: 1, limit: 1, want: "     1\tx"},
		{name: "empty lines and tabs", content: "\tx\n\n  y\n", offset: 1, limit: 2000, want: "     1\t\tx\n     2\t\n     3\t  y"},
		{name: "lone \\r inside a line is content", content: "a\rb\n", offset: 1, limit: 2000, want: "     1\ta\rb"},
		{name: "offset", content: lineFile(5, "\n"), offset: 4, limit: 2000, want: numbered(4, 5)},
		{name: "offset at the last line", content: lineFile(5, "\n"), offset: 5, limit: 2000, want: numbered(5, 5)},
		{name: "limit with lines left", content: lineFile(5, "\n"), offset: 2, limit: 2, want: numbered(2, 3) + "\n... 2 more lines; read them with offset 4"},
		{name: "limit with one line left", content: lineFile(5, "\n"), offset: 1, limit: 4, want: numbered(1, 4) + "\n... 1 more line; read it with offset 5"},
		{name: "limit exactly to the end", content: lineFile(5, "\n"), offset: 3, limit: 3, want: numbered(3, 5)},
		{name: "huge limit does not overflow", content: lineFile(3, "\n"), offset: 2, limit: int(^uint(0) >> 1), want: numbered(2, 3)},
		{name: "default limit leaves thousands", content: lineFile(3234, "\n"), offset: 1, limit: DefaultReadLimit,
			want: numbered(1, 2000) + "\n... 1,234 more lines; read them with offset 2001"},
		{name: "number wider than 6 columns", content: lineFile(1_000_000, "\n"), offset: 999_999, limit: 2, want: "999999\tline 999999\n1000000\tline 1000000"},
		{name: "long line cut at 2000 characters", content: "a\n" + long + "\nb", offset: 2, limit: 1,
			want: "     2\t" + strings.Repeat("é", MaxLineChars) + " [... line cut: 5 more characters]\n... 1 more line; read it with offset 3"},
		{name: "line of exactly 2000 characters not cut", content: strings.Repeat("x", MaxLineChars), offset: 1, limit: 1, want: "     1\t" + strings.Repeat("x", MaxLineChars)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderRead([]byte(tt.content), tt.offset, tt.limit)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				if len(got) > 300 || len(tt.want) > 300 {
					t.Errorf("got %d bytes ending %q\nwant %d bytes ending %q", len(got), tail(got), len(tt.want), tail(tt.want))
				} else {
					t.Errorf("got  %q\nwant %q", got, tt.want)
				}
			}
		})
	}
}

func tail(s string) string { return s[max(0, len(s)-120):] }

func TestRenderReadFailures(t *testing.T) {
	tests := []struct {
		name, content string
		offset, limit int
		msg, details  string
		is            error
	}{
		{name: "offset past the end", content: "a\nb\n", offset: 3, limit: 10, msg: "Offset is past the end of the file",
			details: "offset is 3, but the file has 2 lines; use an offset from 1 to 2", is: ErrOutOfRange},
		{name: "offset past the end of a 1-line file", content: "a", offset: 2, limit: 10, msg: "Offset is past the end of the file",
			details: "offset is 2, but the file has 1 line; use an offset from 1 to 1", is: ErrOutOfRange},
		{name: "offset into an empty file", content: "", offset: 2, limit: 10, msg: "Offset is past the end of the file",
			details: "offset is 2, but the file is empty (0 lines); leave out offset to read it", is: ErrOutOfRange},
		{name: "offset 0", content: "a\n", offset: 0, limit: 10, msg: "Invalid arguments",
			details: `"offset" is 0, but lines are numbered from 1; use 1 (or leave "offset" out) to start at the first line`, is: ErrInvalidArgs},
		{name: "limit 0", content: "a\n", offset: 1, limit: 0, msg: "Invalid arguments",
			details: `"limit" is 0; it is the number of lines to show, at least 1 (leave it out for 2000)`, is: ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderRead([]byte(tt.content), tt.offset, tt.limit)
			checkFailure(t, err, tt.msg, tt.details, tt.is)
			if got != "" {
				t.Errorf("rendered %q with an error", got)
			}
		})
	}
}

// TestReadThenEdit: text copied from Read output, prefixes and all, edits
// the file it came from.
func TestReadThenEdit(t *testing.T) {
	content := []byte("a\r\n\tb\r\nc")
	view, err := RenderRead(content, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := PlanEdit(content, view, strings.Replace(view, "\tb", "\tB", 1), false)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := text.ApplyEdits(content, p.Edits)
	if string(got) != "a\r\n\tB\r\nc" {
		t.Errorf("got %q", got)
	}
}
