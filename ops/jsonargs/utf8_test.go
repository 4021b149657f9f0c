package jsonargs

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// TestAttackInvalidUTF8InStringsIsRefused: encoding/json turns invalid
// UTF-8 and lone surrogate escapes into U+FFFD without a word; Decode must
// refuse them wherever they are, naming the string by its path, and accept
// everything that is valid text, including surrogate pairs and escaped
// backslashes that merely look like escapes.
func TestAttackInvalidUTF8InStringsIsRefused(t *testing.T) {
	top := Spec{Fields: []string{"path", "file_text", "edits", "arguments"}, Example: `{"path": "a"}`}
	nested := Spec{In: "edits[1]", Fields: []string{"old_string", "new_string"}, Example: `{"old_string": "a"}`}
	const (
		rawByte    = `the byte 0xfe is not UTF-8`
		lone800    = `the escape \ud800 is a high surrogate not followed by a low surrogate escape`
		lone800Up  = `the escape \uD800 is a high surrogate not followed by a low surrogate escape`
		loneDC00   = `the escape \udc00 is a low surrogate without a high surrogate escape`
		loneDFFF   = `the escape \uDFFF is a low surrogate without a high surrogate escape`
		encodedSur = `the byte 0xed is not UTF-8`
		overlong   = `the byte 0xc0 is not UTF-8`
	)
	cases := []struct {
		spec      Spec
		raw       string
		name, why string // name "" means: accepted
		at        int
	}{
		{top, "{\"file_text\": \"ab\xfecd\"}", `"file_text"`, rawByte, 3},
		{top, "{\"path\": \"\xfe.txt\"}", `"path"`, rawByte, 1},
		{top, `{"path": "x", "file_text": "\ud800"}`, `"file_text"`, lone800, 1},
		{top, `{"file_text": "ab\uD800"}`, `"file_text"`, lone800Up, 3},
		{top, `{"file_text": "\udc00"}`, `"file_text"`, loneDC00, 1},
		{top, `{"file_text": "\uDFFF\uD800"}`, `"file_text"`, loneDFFF, 1},
		{top, `{"file_text": "\ud800\u0041"}`, `"file_text"`, lone800, 1},
		{top, `{"file_text": "\ud800\ud800\udc00"}`, `"file_text"`, lone800, 1},
		{top, `{"file_text": "\ud800\n"}`, `"file_text"`, lone800, 1},
		{top, `{"file_text": "\ud83d\ude00 \ud800"}`, `"file_text"`, lone800, 3},
		{top, "{\"file_text\": \"\xed\xa0\x80\"}", `"file_text"`, encodedSur, 1},
		{top, "{\"file_text\": \"\xc0\x80\"}", `"file_text"`, overlong, 1},
		{top, "{\"file_text\": \"\xe2\x82\"}", `"file_text"`, `the byte 0xe2 is not UTF-8`, 1},
		{top, "{\"edits\": [{\"old_string\": \"a\"}, {\"new_string\": \"\xfe\"}]}", `"edits[1].new_string"`, rawByte, 1},
		{top, `{"edits": [["ok", "\ud800"]]}`, `"edits[0][1]"`, lone800, 1},
		{top, `{"arguments": {"file_path": "x", "range": {"start": "\udc00"}}}`, `"arguments.range.start"`, loneDC00, 1},
		{top, `{"arguments": {"a\/\u00e9\ud83d\ude00": [1, {"x": null}, "\ud800"]}}`, "\"arguments.a/\u00e9\U0001F600[2]\"", lone800, 1},
		{top, "{\"arguments\": {\"\xfe\": 1}}", `a field name in "arguments"`, rawByte, 1},
		{top, "{\"pa\xfeth\": \"x\"}", `a field name`, rawByte, 3},
		{nested, `{"new_string": "x\udc00"}`, `"edits[1].new_string"`, loneDC00, 2},
		// Valid text is accepted.
		{top, `{"file_text": "\ud83d\ude00 \uD83D\uDE00 \u00e9 \uffff \u0000"}`, "", "", 0},
		{top, `{"file_text": "\\ud800 is how JSON writes a lone surrogate"}`, "", "", 0},
		{top, `{"file_text": "\\\ud83d\ude00"}`, "", "", 0},
		{top, "{\"file_text\": \"\xef\xbf\xbd caf\xc3\xa9 \xf0\x9f\x98\x80\", \"edits\": [\"\xe2\x82\xac\"]}", "", "", 0},
	}
	for _, tc := range cases {
		_, err := tc.spec.Decode([]byte(tc.raw))
		if tc.name == "" {
			if err != nil {
				t.Errorf("Decode(%q) refused valid text: %v", tc.raw, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrNotUTF8) {
			t.Errorf("Decode(%q) = %v, want a refusal wrapping ErrInvalid and ErrNotUTF8", tc.raw, err)
			continue
		}
		want := "invalid arguments: " + tc.name + " is not valid UTF-8 text: " + tc.why
		if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, "(at character "+strconv.Itoa(tc.at)+"); send the text as UTF-8") {
			t.Errorf("Decode(%q):\n got  %s\n want %s... (at character %d); send the text as UTF-8...", tc.raw, msg, want, tc.at)
		}
		if !utf8.ValidString(err.Error()) {
			t.Errorf("the refusal is itself not UTF-8: %q", err)
		}
	}
	// A valid pair is one character, the right one.
	o, err := top.Decode([]byte(`{"file_text": "a\ud83d\ude00b\uD834\uDD1E"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := String("file_text", o["file_text"], "text"); err != nil || s != "a\U0001F600b\U0001D11E" {
		t.Errorf("String = %q, %v; want %q", s, err, "a\U0001F600b\U0001D11E")
	}
	// A bad byte where no string is, is malformed JSON, refused as before.
	_, err = top.Decode([]byte("{\"path\": \xfe}"))
	if err == nil || errors.Is(err, ErrNotUTF8) || !strings.Contains(err.Error(), "not valid JSON (invalid character") {
		t.Errorf("Decode = %v, want a syntax error", err)
	}
}

// TestAttackStringRefusesInvalidUTF8: String is strict on its own too, for
// a value that did not come through Decode.
func TestAttackStringRefusesInvalidUTF8(t *testing.T) {
	for raw, why := range map[string]string{
		"\"x\xfe\"":   `the byte 0xfe is not UTF-8`,
		`"\ud800"`:    `the escape \ud800 is a high surrogate`,
		` "x\udc00" `: `the escape \udc00 is a low surrogate`,
	} {
		s, err := String("content[3]", json.RawMessage(raw), "a line")
		if !errors.Is(err, ErrNotUTF8) || !strings.HasPrefix(err.Error(), `invalid arguments: "content[3]" is not valid UTF-8 text: `+why) || s != "" {
			t.Errorf("String(%q) = %q, %v", raw, s, err)
		}
	}
}

// TestAttackRandomStringsRefusedExactlyWhenNotText builds random JSON
// strings from pieces whose meaning is known (characters, escapes, bytes
// that can never be part of valid UTF-8 whatever surrounds them, surrogate
// escapes in and out of pairs) and checks Decode against that model: it
// refuses exactly the strings that are not text, at the right character
// and for the right reason, and decodes the others to the right text.
func TestAttackRandomStringsRefusedExactlyWhenNotText(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	n := 3000
	if testing.Short() {
		n = 300
	}
	type piece struct {
		json string // as it appears in the token
		text string // what it decodes to, when valid
		unit rune   // for a \u escape: the UTF-16 code unit; else -1
		bad  string // for a raw byte that is not UTF-8: the refusal's reason
	}
	esc := func(u rune) piece {
		h := fmt.Sprintf(`\u%04x`, u)
		if rng.IntN(2) == 0 {
			h = `\u` + strings.ToUpper(h[2:])
		}
		return piece{json: h, text: string(u), unit: u}
	}
	pick := func() piece {
		switch rng.IntN(9) {
		case 0:
			return piece{json: "a", text: "a", unit: -1}
		case 1:
			s := []string{"é", "€", "😀", "\ufffd"}[rng.IntN(4)]
			return piece{json: s, text: s, unit: -1}
		case 2:
			e := [][2]string{{`\n`, "\n"}, {`\\`, `\`}, {`\"`, `"`}, {`\/`, "/"}}[rng.IntN(4)]
			return piece{json: e[0], text: e[1], unit: -1}
		case 3:
			// Never valid UTF-8 whatever comes before or after: a
			// continuation byte alone, bytes UTF-8 never uses, an overlong
			// form, an encoded surrogate, a code point above U+10FFFF.
			b := []string{"\x80", "\xbf", "\xfe", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}[rng.IntN(7)]
			return piece{json: b, unit: -1, bad: fmt.Sprintf("the byte 0x%02x is not UTF-8", b[0])}
		case 4:
			return esc(rune(rng.IntN(0xd800)))
		case 5, 6:
			return esc(0xd800 + rune(rng.IntN(0x400)))
		default:
			return esc(0xdc00 + rune(rng.IntN(0x400)))
		}
	}
	spec := Spec{Fields: []string{"s"}}
	for range n {
		pieces := make([]piece, rng.IntN(6))
		var token strings.Builder
		for i := range pieces {
			pieces[i] = pick()
			token.WriteString(pieces[i].json)
		}
		// The model: the first piece that is not text, at which character.
		var want, why string
		at := 0
		for i := 0; i < len(pieces) && why == ""; i++ {
			p := pieces[i]
			at++
			switch {
			case p.bad != "":
				why = p.bad
			case p.unit >= 0xd800 && p.unit < 0xdc00:
				if i+1 < len(pieces) && pieces[i+1].unit >= 0xdc00 && pieces[i+1].unit < 0xe000 {
					want += string(utf16.DecodeRune(p.unit, pieces[i+1].unit))
					i++
					continue
				}
				why = `the escape ` + p.json + ` is a high surrogate not followed by a low surrogate escape`
			case p.unit >= 0xdc00 && p.unit < 0xe000:
				why = `the escape ` + p.json + ` is a low surrogate without a high surrogate escape`
			default:
				want += p.text
			}
		}
		raw := `{"s": "` + token.String() + `"}`
		o, err := spec.Decode([]byte(raw))
		if why != "" {
			if !errors.Is(err, ErrNotUTF8) || !strings.Contains(err.Error(), `"s" is not valid UTF-8 text: `+why+` `) ||
				!strings.Contains(err.Error(), "(at character "+strconv.Itoa(at)+")") {
				t.Fatalf("seed %d: Decode(%q) = %v; want %s at character %d", seed, raw, err, why, at)
			}
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: Decode(%q) refused text: %v", seed, raw, err)
		}
		if got, err := String("s", o["s"], "text"); err != nil || got != want {
			t.Fatalf("seed %d: String(%q) = %q, %v; want %q", seed, raw, got, err, want)
		}
	}
}
