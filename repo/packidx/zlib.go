package packidx

import (
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// zlibReaders keeps inflaters for reuse: each holds a window and Huffman
// tables that would otherwise be allocated for every object read.
// klauspost/compress's inflater, not the standard library's: a command
// that reads a few hundred small trees (git edit sessions) spent most of
// its reading in compress/flate's table building.
var zlibReaders sync.Pool

// getZlibReader returns an inflater of the zlib stream r (which should be
// an io.ByteReader, as bytes.Reader and bufio.Reader are, so that it
// reads no byte past the stream) and the func that gives it back once the
// caller is done with it. The error is the stream header's.
func getZlibReader(r io.Reader) (io.Reader, func(), error) {
	if z, ok := zlibReaders.Get().(io.ReadCloser); ok {
		if err := z.(zlib.Resetter).Reset(r, nil); err != nil {
			return nil, nil, err
		}
		return z, func() { zlibReaders.Put(z) }, nil
	}
	z, err := zlib.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	return z, func() { zlibReaders.Put(z) }, nil
}
