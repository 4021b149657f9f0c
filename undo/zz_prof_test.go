package undo

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/git-edit/git-edit/repo"
)

func TestZZProf(t *testing.T) {
	dir := os.Getenv("H31_PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	r, err := repo.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		start := time.Now()
		lines, err := Blame(context.Background(), r, "big.txt", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(len(lines), time.Since(start))
	}
}
