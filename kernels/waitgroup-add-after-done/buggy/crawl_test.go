package buggy

import "testing"

func TestCrawl(t *testing.T) {
	root := &Node{Name: "a", Children: []*Node{{Name: "b"}, {Name: "c"}}}
	got := Crawl(root)
	if len(got) != 3 {
		t.Errorf("Crawl = %v, want [a b c]", got)
	}
}
