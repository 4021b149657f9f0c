package text

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// Names as gitattributes give them: IANA's and its aliases, the WHATWG
// labels git's iconv also takes (cp1251, sjis), any case; git's own -BOM
// spellings of UTF-16; UTF-8 decodes nothing.
func TestLookupEncoding(t *testing.T) {
	tests := []struct {
		name string
		want string // Encoding.String(); "" for unknown
		utf8 bool
	}{
		{"cp1251", "cp1251", false},
		{"CP1251", "CP1251", false},
		{"windows-1251", "windows-1251", false},
		{"ISO-8859-1", "ISO-8859-1", false},
		{"latin1", "latin1", false},
		{"Shift_JIS", "Shift_JIS", false},
		{"SHIFT-JIS", "SHIFT-JIS", false},
		{"EUC-KR", "EUC-KR", false},
		{"KOI8-R", "KOI8-R", false},
		{" GBK ", "GBK", false},
		{"UTF-16LE", "UTF-16LE", false},
		{"UTF-16LE-BOM", "UTF-16LE", false},
		{"utf-16be-bom", "UTF-16BE", false},
		{"UTF-8", "UTF-8", true},
		{"utf8", "utf8", true},
		{"UTF-16", "UTF-16LE", false},
		{"ASCII", "ASCII", false},
		{"", "UTF-8", true},
		{"UTF-32", "", false},
		{"klingon", "", false},
	}
	for _, tt := range tests {
		enc, err := LookupEncoding(tt.name)
		if tt.want == "" {
			if !errors.Is(err, ErrUnknownEncoding) {
				t.Errorf("%q: %v, %v; want ErrUnknownEncoding", tt.name, enc, err)
			}
			continue
		}
		if err != nil || enc.String() != tt.want || (enc.form == formUTF8) != tt.utf8 || enc.declared != (tt.name != "") {
			t.Errorf("%q: %v (%q), %v; want %q", tt.name, enc, enc.String(), err, tt.want)
		}
	}
}

func mustLookup(t *testing.T, name string) Encoding {
	t.Helper()
	enc, err := LookupEncoding(name)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// DecodeAs reads a file in its declared encoding, or by its UTF-16 mark
// when a form of UTF-16 is declared; EncodeText gives the bytes back.
func TestDecodeAs(t *testing.T) {
	tests := []struct {
		name     string
		declared string
		in       string
		text     string
		enc      string
	}{
		{"cp1251 CRLF", "cp1251", "\xcf\xf0\xe8\xe2\xe5\xf2\r\n", "Привет\r\n", "cp1251"},
		{"Shift_JIS", "Shift_JIS", "\x93\xfa\x96{\n", "日本\n", "Shift_JIS"},
		{"windows-1252 euro and quotes", "windows-1252", "\x80 \x93q\x94\n", "€ “q”\n", "windows-1252"},
		{"UTF-16LE without a mark", "UTF-16LE", "a\x00\n\x00", "a\n", "UTF-16LE"},
		{"UTF-16LE declared, a mark read as the mark", "UTF-16LE", "\xff\xfea\x00", BOM + "a", "UTF-16LE"},
		{"UTF-16LE declared, a BE mark wins", "UTF-16LE", "\xfe\xff\x00a", BOM + "a", "UTF-16BE"},
		{"cp1251 declared over FF FE: the attribute wins", "cp1251", "\xff\xfe", "яю", "cp1251"},
		{"nothing declared: UTF-8 as is", "", "\xcf\xf0", "\xcf\xf0", "UTF-8"},
		{"empty", "cp1251", "", "", "cp1251"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, enc, err := DecodeAs([]byte(tt.in), mustLookup(t, tt.declared))
			if err != nil || string(text) != tt.text || enc.String() != tt.enc {
				t.Fatalf("DecodeAs = %q, %v, %v; want %q, %s", text, enc, err, tt.text, tt.enc)
			}
			back, err := EncodeText(text, enc)
			if err != nil || string(back) != tt.in {
				t.Fatalf("EncodeText = % x, %v; want % x", back, err, tt.in)
			}
		})
	}
}

// Bytes that are not text in the declared encoding are refused, naming
// the line: an invalid sequence, and a character written two ways of
// which the encoder writes only one (the file would change where the edit
// did not touch it).
func TestDecodeAsRefuses(t *testing.T) {
	tests := []struct {
		name, declared, in, says string
	}{
		{"invalid Shift_JIS", "Shift_JIS", "ok\nbad \x81\x20\n", "its bytes are not Shift_JIS text (line 2 has bytes that decode to no character)"},
		{"an odd byte in UTF-16LE", "UTF-16LE", "a\x00b", "its bytes are not UTF-16LE text (line 1 has bytes that decode to no character)"},
		{"Shift_JIS NEC row 13 duplicate of a JIS character (≒)", "Shift_JIS", "one\ntwo \x87\x90\n", "its bytes are not Shift_JIS text (line 2 would not be written back as the same bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecodeAs([]byte(tt.in), mustLookup(t, tt.declared))
			if !errors.Is(err, ErrNotInEncoding) || !strings.HasSuffix(err.Error(), tt.says) {
				t.Fatalf("DecodeAs: %v; want ErrNotInEncoding saying %q", err, tt.says)
			}
		})
	}
}

// Text the declared encoding has no character for is refused, naming the
// line and the character.
func TestEncodeTextRefuses(t *testing.T) {
	tests := []struct {
		declared, text, says string
	}{
		{"cp1251", "один\nи 中\n", "line 2 has '中' (U+4E2D), which cp1251 cannot encode"},
		{"ISO-8859-1", "€\n", "line 1 has '€' (U+20AC), which ISO-8859-1 cannot encode"},
		{"cp1251", "a\n\xff\n", "line 2 has invalid UTF-8, which has no cp1251 form"},
	}
	for _, tt := range tests {
		_, err := EncodeText([]byte(tt.text), mustLookup(t, tt.declared))
		if !errors.Is(err, ErrNotInEncoding) || !strings.HasSuffix(err.Error(), tt.says) {
			t.Errorf("%s %q: %v; want ErrNotInEncoding saying %q", tt.declared, tt.text, err, tt.says)
		}
	}
}

// FuzzDeclaredEncodingEdit: whatever the bytes, a file DecodeAs accepts
// encodes back to exactly those bytes, and an edit of its text changes
// no byte outside the edited region: the encoded text before the edit is
// the file's own first bytes, the encoded text after it its last bytes.
func FuzzDeclaredEncodingEdit(f *testing.F) {
	f.Add([]byte("\xcf\xf0\xe8\xe2\xe5\xf2\r\n\xec\xe8\xf0\n"), uint(2), uint(5), "новый")
	f.Add([]byte("\x93\xfa\x96{\n\x82\xa0"), uint(0), uint(3), "語")
	f.Add([]byte("a\x00\n\x00b\x00"), uint(1), uint(2), "xy")
	encs := []string{"cp1251", "Shift_JIS", "windows-1252", "EUC-KR", "GBK", "UTF-16LE", "KOI8-R"}
	f.Fuzz(func(t *testing.T, b []byte, start, end uint, repl string) {
		for _, name := range encs {
			declared, err := LookupEncoding(name)
			if err != nil {
				t.Fatal(err)
			}
			txt, enc, err := DecodeAs(b, declared)
			if err != nil {
				continue
			}
			back, err := EncodeText(txt, enc)
			if err != nil || string(back) != string(b) {
				t.Fatalf("%s: % x decoded to %q, which encodes back to % x (%v)", name, b, txt, back, err)
			}
			s, e := runeStart(txt, int(start%uint(len(txt)+1))), runeStart(txt, int(end%uint(len(txt)+1)))
			if s > e {
				s, e = e, s
			}
			edited := string(txt[:s]) + repl + string(txt[e:])
			out, err := EncodeText([]byte(edited), enc)
			if err != nil {
				continue // text the encoding cannot hold: refused
			}
			before, err1 := EncodeText(txt[:s], enc)
			after, err2 := EncodeText(txt[e:], enc)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: a part of decoded text does not encode: %v %v", name, err1, err2)
			}
			if enc.IsUTF16() || enc.utf16 {
				// UTF-16 writes its mark with every encoded part; compare
				// past it.
				continue
			}
			if !strings.HasPrefix(string(b), string(before)) || !strings.HasSuffix(string(b), string(after)) ||
				!strings.HasPrefix(string(out), string(before)) || !strings.HasSuffix(string(out), string(after)) {
				t.Fatalf("%s: editing %q[%d:%d] to %q changed bytes outside it: % x -> % x", name, txt, s, e, repl, b, out)
			}
		}
	})
}

// runeStart is the start of the rune holding byte i of s (i itself at
// len(s)).
func runeStart(s []byte, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
