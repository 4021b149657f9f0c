package scanner

import (
	"testing"
	"unicode/utf16"
)

// TestDecodeUTF16: text in UTF-16 with a byte order mark, or detectably
// UTF-16 without one, decodes to the text; other content is not UTF-16.
func TestDecodeUTF16(t *testing.T) {
	le := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	be := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return string(b)
	}
	const text = "line one\r\nzwei: grüße 😀\n\tdrei\n"
	tests := []struct {
		name, content, want string
		ok                  bool
	}{
		{"LE with BOM", "\xff\xfe" + le(text), text, true},
		{"BE with BOM", "\xfe\xff" + be(text), text, true},
		{"LE with BOM, odd last byte dropped", "\xff\xfe" + le(text) + "\x00", text, true},
		{"LE without BOM", le(text), text, true},
		{"BE without BOM", be(text), text, true},
		{"mostly CJK without BOM", le("漢字漢字漢字 a"), "", false},
		{"LE without BOM, odd length", le(text) + "x", "", false},
		{"LE without BOM, unpaired surrogate", le("abc") + "\x00\xd8" + le("def"), "", false},
		{"LE without BOM, control character", le("abc\x01def"), "", false},
		{"LE without BOM, NUL character", le("abc\x00def"), "", false},
		{"ASCII", "plain ascii text\n", "", false},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00", "", false},
		{"empty", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := decodeUTF16([]byte(tc.content))
			if got != tc.want || ok != tc.ok {
				t.Fatalf("decodeUTF16 = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
