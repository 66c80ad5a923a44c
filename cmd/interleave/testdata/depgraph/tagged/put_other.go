// +build !unix

package tagged

// Put sends v.
func (q *Queue) Put(v int) { q.c <- v + undefinedOnUnix }
