package extract

import (
	"context"
	"errors"
	"math"
	"reflect"
	"unsafe"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/tetratelabs/wazero/api"
)

// pdfModule is the WebAssembly side of one go-pdfium instance: PDFium's
// exported functions and the context its calls are made with.
//
// Why reach past go-pdfium: its calls that answer with numbers through
// pointers (a run's rectangle, a character's box or origin) allocate and
// free each number in the module on every question, so one rectangle costs
// nine calls into the module. Asked per line, those calls cost more than all
// our own code. Here each is one call, answering into one buffer made once
// per page. go-pdfium keeps the module unexported; moduleOf finds it by
// field name (the version is pinned in go.mod, and
// TestPageGeometryEqualsGoPdfium fails on one that moves it).
type pdfModule struct {
	ctx        context.Context
	mem        api.Memory
	fn         func(name string) api.Function
	textPages  reflect.Value // go-pdfium's text page references -> handles
	getRect    api.Function
	countRects api.Function
	charBox    api.Function
	charOrigin api.Function
	looseBox   api.Function
	charAtPos  api.Function
	textObject api.Function
	objectFont api.Function
	malloc     api.Function
	free       api.Function
}

var errNoModule = errors.New("go-pdfium's WebAssembly module not found (has its version changed?)")

// moduleOf finds the module behind a webassembly-mode instance.
func moduleOf(inst pdfium.Pdfium) (*pdfModule, error) {
	v := reflect.ValueOf(inst)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, errNoModule
	}
	worker := v.Elem().FieldByName("worker")
	if !worker.IsValid() || worker.Kind() != reflect.Pointer || worker.IsNil() {
		return nil, errNoModule
	}
	field := worker.Elem().FieldByName("Instance")
	if !field.IsValid() || field.Kind() != reflect.Pointer || field.IsNil() {
		return nil, errNoModule
	}
	// The field is exported but its struct is not: read it through its address.
	impl := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem()
	fns, ok := impl.Interface().(interface{ Fn(string) api.Function })
	if !ok {
		return nil, errNoModule
	}
	ctx, ok := impl.Elem().FieldByName("Context").Interface().(context.Context)
	if !ok {
		return nil, errNoModule
	}
	mod, ok := impl.Elem().FieldByName("Module").Interface().(api.Module)
	if !ok || mod == nil {
		return nil, errNoModule
	}
	textPages := impl.Elem().FieldByName("textPageRefs")
	if textPages.Kind() != reflect.Map || textPages.Type().Key() != reflect.TypeFor[references.FPDF_TEXTPAGE]() {
		return nil, errNoModule
	}
	m := &pdfModule{ctx: ctx, mem: mod.Memory(), fn: fns.Fn, textPages: textPages}
	for _, f := range []struct {
		fn   *api.Function
		name string
	}{
		{&m.getRect, "FPDFText_GetRect"}, {&m.countRects, "FPDFText_CountRects"},
		{&m.charBox, "FPDFText_GetCharBox"}, {&m.charOrigin, "FPDFText_GetCharOrigin"},
		{&m.looseBox, "FPDFText_GetLooseCharBox"}, {&m.charAtPos, "FPDFText_GetCharIndexAtPos"},
		{&m.textObject, "FPDFText_GetTextObject"}, {&m.objectFont, "FPDFTextObj_GetFont"},
		{&m.malloc, "malloc"}, {&m.free, "free"},
	} {
		if *f.fn = fns.Fn(f.name); *f.fn == nil {
			return nil, errNoModule
		}
	}
	return m, nil
}

// pageGeometry asks one text page where its runs and characters are.
// A question PDFium cannot answer (a character without a box) or a call
// that fails (PDFium trapped) answers ok=false, as
// go-pdfium's calls answered an error.
type pageGeometry struct {
	m     *pdfModule
	tp    uint64 // the text page inside the module
	buf   uint64 // 32 bytes inside the module, for the answers
	stack [6]uint64
}

// page opens the geometry of text page tp; close frees its buffer.
func (m *pdfModule) page(tp references.FPDF_TEXTPAGE) (*pageGeometry, error) {
	h := m.textPages.MapIndex(reflect.ValueOf(tp))
	if !h.IsValid() || h.Kind() != reflect.Pointer || h.IsNil() {
		return nil, errNoModule
	}
	handle := h.Elem().FieldByName("handle")
	if handle.Kind() != reflect.Pointer || handle.IsNil() || handle.Elem().Kind() != reflect.Uint64 {
		return nil, errNoModule
	}
	g := &pageGeometry{m: m, tp: handle.Elem().Uint()}
	if !g.call(m.malloc, 32) || g.stack[0] == 0 {
		return nil, errors.New("no memory for a page's geometry")
	}
	g.buf = uint64(uint32(g.stack[0]))
	return g, nil
}

func (g *pageGeometry) close() {
	g.call(g.m.free, g.buf)
}

// call calls fn with params and leaves its result in g.stack[0]; ok is
// false when the call failed.
func (g *pageGeometry) call(fn api.Function, params ...uint64) bool {
	n := copy(g.stack[:], params)
	return fn.CallWithStack(g.m.ctx, g.stack[:n]) == nil
}

// answered calls a PDFium function that returns a FPDF_BOOL.
func (g *pageGeometry) answered(fn api.Function, params ...uint64) bool {
	return g.call(fn, params...) && int32(g.stack[0]) != 0
}

func (g *pageGeometry) f64(k uint64) float64 {
	v, _ := g.m.mem.ReadFloat64Le(uint32(g.buf + 8*k))
	return v
}

func (g *pageGeometry) f32(k uint64) float32 {
	v, _ := g.m.mem.ReadFloat32Le(uint32(g.buf + 4*k))
	return v
}

// pdfRect is a rectangle in page coordinates (y grows upwards).
type pdfRect struct{ left, top, right, bottom float64 }

// countRects is how many runs (characters of one text object) characters
// start to start+count-1 make; rect then tells each run's rectangle.
func (g *pageGeometry) countRects(start, count int) int {
	if !g.call(g.m.countRects, g.tp, uint64(start), uint64(count)) {
		return 0
	}
	return int(int32(g.stack[0]))
}

func (g *pageGeometry) rect(k int) (pdfRect, bool) {
	b := g.buf
	if !g.answered(g.m.getRect, g.tp, uint64(k), b, b+8, b+16, b+24) {
		return pdfRect{}, false
	}
	return pdfRect{left: g.f64(0), top: g.f64(1), right: g.f64(2), bottom: g.f64(3)}, true
}

// charLeft is the left edge of character i's box.
func (g *pageGeometry) charLeft(i int) (float64, bool) {
	b := g.buf // left, right, bottom, top
	if !g.answered(g.m.charBox, g.tp, uint64(i), b, b+8, b+16, b+24) {
		return 0, false
	}
	return g.f64(0), true
}

// baseline is the y of character i's origin.
func (g *pageGeometry) baseline(i int) (float64, bool) {
	b := g.buf // x, y
	if !g.answered(g.m.charOrigin, g.tp, uint64(i), b, b+8) {
		return 0, false
	}
	return g.f64(1), true
}

// looseHeight is the height of character i's font box (FS_RECTF, float32
// left, top, right, bottom), the size the character is set in.
func (g *pageGeometry) looseHeight(i int) (float64, bool) {
	if !g.answered(g.m.looseBox, g.tp, uint64(i), g.buf) {
		return 0, false
	}
	return math.Abs(float64(g.f32(1) - g.f32(3))), true
}

// charAt is the index of the character at (x, y) within the tolerances,
// negative when there is none.
func (g *pageGeometry) charAt(x, y, xTol, yTol float64) int {
	if !g.call(g.m.charAtPos, g.tp, math.Float64bits(x), math.Float64bits(y), math.Float64bits(xTol), math.Float64bits(yTol)) {
		return -1
	}
	return int(int32(g.stack[0]))
}

// font is the font of character i's text object inside the module, 0 for
// a character PDFium made up (a space it inferred) or one it cannot tell.
func (g *pageGeometry) font(i int) uint64 {
	if !g.call(g.m.textObject, g.tp, uint64(i)) || uint32(g.stack[0]) == 0 {
		return 0
	}
	if !g.call(g.m.objectFont, uint64(uint32(g.stack[0]))) {
		return 0
	}
	return uint64(uint32(g.stack[0]))
}
