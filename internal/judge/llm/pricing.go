package llm

import "strings"

// price is USD per million tokens, input and output.
type price struct{ in, out float64 }

// prices by model family, matched as a substring of the model id. The
// figures are list prices of the current generation; a model not listed is
// costed as sonnet. An estimate, recorded as such.
var prices = []struct {
	family string
	p      price
}{
	{"opus-4-0", price{15, 75}}, {"opus-4-1", price{15, 75}}, {"opus-4-2", price{15, 75}},
	{"opus", price{5, 25}},
	{"sonnet", price{3, 15}},
	{"haiku-3", price{0.25, 1.25}},
	{"haiku", price{1, 5}},
}

// EstimateCost is the list-price cost of a call in USD.
func EstimateCost(model string, in, out int64) float64 {
	p := price{3, 15}
	m := strings.ToLower(model)
	for _, f := range prices {
		if strings.Contains(m, f.family) {
			p = f.p
			break
		}
	}
	return (float64(in)*p.in + float64(out)*p.out) / 1e6
}
