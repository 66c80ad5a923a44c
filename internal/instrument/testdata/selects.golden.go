//line testdata/selects.go:1
package selects; import __rt "interleave.dev/rt"

import "fmt"

type Flag bool

func chans() (chan int, chan int) { return __rt.MakeChan[int](0, __rtSites_2e5005ea+0), __rt.MakeChan[int](0, __rtSites_2e5005ea+1) }

func value() int { return 42 }

func Select(a, b chan int, done <-chan struct{}, flags chan Flag, m map[int]int, x, y int) int {
	{ __rtC2, __rtC3, __rtC4, __rtC5, __rtC6, __rtC7, __rtC8, __rtC9 := a, b, b, value(), done, flags, (Flag)(x == y), flags; __rtSel1 := __rt.SelectStart(__rtSites_2e5005ea+2); __rt.SelectRecv[int](__rtSel1, __rtC2); __rt.SelectRecv[int](__rtSel1, __rtC3); __rt.SelectSend[int](__rtSel1, __rtC4, __rtC5); __rt.SelectRecv[struct{}](__rtSel1, __rtC6); __rt.SelectSend[Flag](__rtSel1, __rtC7, __rtC8); __rt.SelectSend[Flag](__rtSel1, __rtC9, true); switch __rtSel1.Do(true) {
	case 0: v, _ := __rt.SelectValue[int](__rtSel1);
		fmt.Println(v)
	case 1: v, ok := __rt.SelectValue[int](__rtSel1);
		fmt.Println(v, ok)
	case 2:
	case 3:
		return 0
	case 4:
	case 5:
	default:
		fmt.Println("nothing ready")
	}}

	var v int
	var ok bool
	{ __rtC11, __rtC12, __rtC13 := a, b, a; __rtSel10 := __rt.SelectStart(__rtSites_2e5005ea+3); __rt.SelectRecv[int](__rtSel10, __rtC11); __rt.SelectRecv[int](__rtSel10, __rtC12); __rt.SelectRecv[int](__rtSel10, __rtC13); switch __rtSel10.Do(false) {
	case 0: v, _ = __rt.SelectValue[int](__rtSel10);
	case 1: v, ok = __rt.SelectValue[int](__rtSel10);
	default: m[v], ok = __rt.SelectValue[int](__rtSel10);
	}}
	fmt.Println(v, ok)

loop:
	for {
		{ __rtC15, __rtC16 := done, a; __rtSel14 := __rt.SelectStart(__rtSites_2e5005ea+4); __rt.SelectRecv[struct{}](__rtSel14, __rtC15); __rt.SelectSend[int](__rtSel14, __rtC16, 1); switch __rtSel14.Do(false) {
		case 0:
			break loop
		default:
			continue loop
		}}
	}

	c1, _ := chans()
	{ __rtC18 := func() chan int { c, _ := chans(); return c }(); __rtSel17 := __rt.SelectStart(__rtSites_2e5005ea+5); __rt.SelectRecv[int](__rtSel17, __rtC18); switch __rtSel17.Do(false) {
	default: n, _ := __rt.SelectValue[int](__rtSel17);
		{ __rtC20, __rtC21 := c1, n; __rtSel19 := __rt.SelectStart(__rtSites_2e5005ea+6); __rt.SelectSend[int](__rtSel19, __rtC20, __rtC21); switch __rtSel19.Do(true) {
		case 0:
		default:
		}}
	}}

{ __rtC23, __rtC24 := a, b; __rtSel22 := __rt.SelectStart(__rtSites_2e5005ea+7); __rt.SelectRecv[int](__rtSel22, __rtC23); __rt.SelectRecv[int](__rtSel22, __rtC24); sel: switch __rtSel22.Do(false) {/*line testdata/selects.go:55:10*/
	case 0:
		break sel
	default:
	}}

	// A select whose cases all return is a terminating statement.
	{ __rtC26, __rtC27 := a, b; __rtSel25 := __rt.SelectStart(__rtSites_2e5005ea+8); __rt.SelectRecv[int](__rtSel25, __rtC26); __rt.SelectRecv[int](__rtSel25, __rtC27); switch __rtSel25.Do(false) {
	case 0: v, _ := __rt.SelectValue[int](__rtSel25);
		return v
	default: v, _ := __rt.SelectValue[int](__rtSel25);
		return v
	}}
}

func Forever() {
	for { __rt.SelectStart(__rtSites_2e5005ea+9).Do(false) }
}

var __rtSites_2e5005ea = __rt.RegisterFile("testdata/selects.go", "\n\nc<a\tc<b\tc>b\tc<done\tc>flags\tc>flags\nc<a\tc<b\tc<a\nc<done\tc>a\nc<(func() chan int literal)()\nc>c1\nc<a\tc<b\nc<a\tc<b", 7, 44, 7, 60, 12, 2, 28, 2, 37, 3, 46, 2, 48, 3, 55, 2, 62, 2, 71, 2)
