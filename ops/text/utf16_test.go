package text

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

// le and be spell s (UTF-8) as UTF-16 code units in that byte order,
// without a BOM: the test's own reference, independent of EncodeText.
func le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func be(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	bomLE = []byte{0xff, 0xfe}
	bomBE = []byte{0xfe, 0xff}
)

// Well-formed UTF-16 with a BOM decodes to UTF-8 with the UTF-8 BOM, line
// endings and every code point as they are, and encodes back byte for
// byte; everything else is UTF8 and passed through untouched.
func TestDecodeEncodeText(t *testing.T) {
	const mixed = "a\r\nb\nc\rd é ж 中 😀 \U0010FFFF end"
	tests := []struct {
		name string
		in   []byte
		enc  Encoding
		text string
	}{
		{"LE CRLF", cat(bomLE, le("one\r\ntwo\r\n")), UTF16LE, BOM + "one\r\ntwo\r\n"},
		{"BE CRLF", cat(bomBE, be("one\r\ntwo\r\n")), UTF16BE, BOM + "one\r\ntwo\r\n"},
		{"LE every plane and line ending", cat(bomLE, le(mixed)), UTF16LE, BOM + mixed},
		{"BE every plane and line ending", cat(bomBE, be(mixed)), UTF16BE, BOM + mixed},
		{"LE BOM only", bomLE, UTF16LE, BOM},
		{"BE BOM only", bomBE, UTF16BE, BOM},
		{"a second BOM is text", cat(bomLE, le("\ufeffx")), UTF16LE, BOM + "\ufeffx"},
		{"NUL code units decode (then IsBinary judges)", cat(bomLE, le("a\x00b")), UTF16LE, BOM + "a\x00b"},
		{"ASCII", []byte("plain\n"), UTF8, "plain\n"},
		{"UTF-8 BOM", []byte(BOM + "x\r\n"), UTF8, BOM + "x\r\n"},
		{"empty", nil, UTF8, ""},
		{"one byte FF", []byte{0xff}, UTF8, "\xff"},
		{"binary", []byte("a\x00b"), UTF8, "a\x00b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := DecodeText(tt.in)
			if err != nil || enc != tt.enc || string(text) != tt.text {
				t.Fatalf("DecodeText = %q, %v, %v; want %q, %v", text, enc, err, tt.text, tt.enc)
			}
			if enc == UTF8 && len(tt.in) > 0 && &text[0] != &tt.in[0] {
				t.Errorf("DecodeText copied a UTF-8 file")
			}
			back, err := EncodeText(text, enc)
			if err != nil || !bytes.Equal(back, tt.in) {
				t.Fatalf("EncodeText = % x, %v; want % x", back, err, tt.in)
			}
		})
	}
}

// A UTF-16 file keeps its byte order mark whatever the new text: text
// without the UTF-8 BOM gets it, text with one does not get two.
func TestEncodeTextKeepsTheMark(t *testing.T) {
	for _, tt := range []struct {
		text string
		enc  Encoding
		want []byte
	}{
		{"x\r\n", UTF16LE, cat(bomLE, le("x\r\n"))},
		{BOM + "x\r\n", UTF16LE, cat(bomLE, le("x\r\n"))},
		{"", UTF16BE, bomBE},
		{"x", UTF8, []byte("x")},
	} {
		got, err := EncodeText([]byte(tt.text), tt.enc)
		if err != nil || !bytes.Equal(got, tt.want) {
			t.Errorf("EncodeText(%q, %v) = % x, %v; want % x", tt.text, tt.enc, got, err, tt.want)
		}
	}
	if _, err := EncodeText([]byte("ok\xffno"), UTF16LE); !errors.Is(err, ErrNotUTF16) || !strings.Contains(err.Error(), "byte 2") {
		t.Errorf("EncodeText of invalid UTF-8: %v; want ErrNotUTF16 at byte 2", err)
	}
}

// A file with a UTF-16 mark that is not well-formed UTF-16 is refused,
// saying what is wrong and where; NotText words it, and every other file
// is judged as before.
func TestMalformedUTF16(t *testing.T) {
	hi, lo := []byte{0x3d, 0xd8}, []byte{0x00, 0xde} // U+D83D, U+DE00 (LE)
	tests := []struct {
		name string
		in   []byte
		want string // in the error; "" for text
	}{
		{"odd byte count", cat(bomLE, le("ab"), []byte{'c'}), "odd number of bytes (7)"},
		{"BOM and one byte", []byte{0xfe, 0xff, 'x'}, "UTF-16BE byte order mark but has an odd number of bytes (3)"},
		{"lone high surrogate at the end", cat(bomLE, le("a"), hi), "lone surrogate (U+D83D) at byte 4"},
		{"high surrogate before a letter", cat(bomLE, hi, le("a")), "lone surrogate (U+D83D) at byte 2"},
		{"lone low surrogate", cat(bomLE, lo, le("a")), "lone surrogate (U+DE00) at byte 2"},
		{"well-formed, but not decoded", cat(bomLE, hi, lo), "is UTF-16LE text that was not decoded"},
		{"NUL bytes", []byte("a\x00"), "contains NUL bytes"},
		{"text", []byte("a\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NotText(tt.in)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("NotText = %v; want text", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NotText = %v; want %q in it", err, tt.want)
			}
			if EncodingOf(tt.in) != UTF8 {
				_, _, derr := DecodeText(tt.in)
				if malformed := derr != nil; malformed != errors.Is(err, ErrNotUTF16) || malformed != errors.Is(derr, ErrNotUTF16) {
					t.Errorf("DecodeText = %v, NotText = %v; want both to wrap ErrNotUTF16 for a malformed file, neither else", derr, err)
				}
			}
		})
	}
}

// An ordinary file costs one two-byte look: no allocation.
func TestDecodeTextUTF8DoesNotAllocate(t *testing.T) {
	b := []byte(strings.Repeat("line\r\n", 1000))
	if n := testing.AllocsPerRun(100, func() { _, _, _ = DecodeText(b) }); n != 0 {
		t.Errorf("DecodeText of a UTF-8 file allocates %v times", n)
	}
}

// The cost of the decoding step on a 1 MB file: nothing for UTF-8, one
// pass each way for UTF-16.
func BenchmarkDecodeText(b *testing.B) {
	text := strings.Repeat("a line of text, é 中\r\n", 1<<20/24)
	utf16le := cat(bomLE, le(text))
	for _, bc := range []struct {
		name string
		in   []byte
	}{{"UTF-8", []byte(text)}, {"UTF-16LE", utf16le}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			for b.Loop() {
				t, enc, err := DecodeText(bc.in)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := EncodeText(t, enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
