package secrets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// writeRequest writes what json.Marshal makes of the Request, byte for
// byte, whatever the blobs and messages hold: nil or empty contents,
// slices and added lines (nil and empty Added differ in meaning), binary
// content, text that is not UTF-8 or that JSON escapes.
func TestWriteRequestIsJSON(t *testing.T) {
	odd := "a<b>&\"c\"\\\n\t\x00\x1f\xff\xfe é \u2028 😀"
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	tests := []struct {
		name     string
		blobs    []Blob
		messages []Message
	}{
		{"nothing", nil, nil},
		{"empty slices", []Blob{}, []Message{}},
		{"blobs", []Blob{
			{Session: "s", Commit: "c1", Path: "a.txt", Content: []byte("one\ntwo\n")},
			{Session: "s", Commit: "c1", Path: "b.txt", Content: []byte{}, Added: []LineRange{}},
			{Session: "s", Commit: "c2", Path: "c.bin", Content: nil, Added: []LineRange{{1, 2}, {5, 5}}},
			{Session: odd, Commit: odd, Path: odd, Content: all},
			{Content: []byte("x")},
			{Content: []byte("xy")},
			{Content: bytes.Repeat(all, 1000)},
		}, nil},
		{"messages", nil, []Message{{Session: "s", Commit: "c", Text: "fix: it\n\nbody\n"}, {Text: odd}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(Request{Version: ProtocolVersion, Blobs: tc.blobs, Messages: tc.messages})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeRequest(context.Background(), &got, tc.blobs, tc.messages); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), append(want, '\n')) {
				t.Fatalf("writeRequest wrote\n%.2000s\njson.Marshal makes\n%.2000s", got.Bytes(), want)
			}
		})
	}
}

// writeRequest ends with ctx's error when ctx is cancelled, and with the
// writer's when writing fails.
func TestWriteRequestStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	blobs := []Blob{{Content: []byte("x")}}
	if err := writeRequest(ctx, &bytes.Buffer{}, blobs, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("writeRequest with ctx cancelled: %v; want context.Canceled", err)
	}
	broken := errors.New("broken pipe")
	big := []Blob{{Content: bytes.Repeat([]byte("x"), 1<<20)}}
	if err := writeRequest(context.Background(), failingWriter{broken}, big, nil); !errors.Is(err, broken) {
		t.Errorf("writeRequest to a failing writer: %v; want its error", err)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }
