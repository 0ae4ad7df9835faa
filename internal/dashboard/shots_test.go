package dashboard_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"sort"
)

// smallPNG re-encodes a screenshot with a palette of its 256 most used
// colours (nearest colour for the rest, no dithering): a UI is mostly flat
// colours, so it looks the same at a third of the size.
func smallPNG(in []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}]++
		}
	}
	cols := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool { return counts[cols[i]] > counts[cols[j]] })
	if len(cols) > 256 {
		cols = cols[:256]
	}
	pal := make(color.Palette, len(cols))
	for i, c := range cols {
		pal[i] = c
	}
	out := image.NewPaletted(b, pal)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
