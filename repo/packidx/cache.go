package packidx

import (
	"container/list"

	"github.com/go-git/go-git/v5/plumbing"
)

// cacheBudget bounds the bytes a Store keeps of objects it inflated. Like
// git's delta base cache it spares re-inflating a chain's bases when
// neighbouring objects (two versions of a tree) are read; objects larger
// than a quarter of it are never kept.
const cacheBudget = 16 << 20

type cacheKey struct {
	p   *pack
	off int64
}

type cached struct {
	key  cacheKey
	typ  plumbing.ObjectType
	data []byte
}

// lru is a least-recently-used cache of resolved pack objects by position,
// bounded in bytes. The zero value with a budget is ready to use.
type lru struct {
	budget, used int
	order        *list.List // front: most recent; values are *cached
	byKey        map[cacheKey]*list.Element
}

func (c *lru) get(k cacheKey) (*cached, bool) {
	el, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cached), true
}

func (c *lru) put(k cacheKey, typ plumbing.ObjectType, data []byte) {
	if len(data) > c.budget/4 {
		return
	}
	if c.byKey == nil {
		c.byKey = map[cacheKey]*list.Element{}
		c.order = list.New()
	}
	if el, ok := c.byKey[k]; ok {
		c.order.MoveToFront(el)
		return
	}
	for c.used+len(data) > c.budget && c.order.Len() > 0 {
		old := c.order.Remove(c.order.Back()).(*cached)
		delete(c.byKey, old.key)
		c.used -= len(old.data)
	}
	c.byKey[k] = c.order.PushFront(&cached{key: k, typ: typ, data: data})
	c.used += len(data)
}
