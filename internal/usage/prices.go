package usage

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// prices.json is the offline price table: the LiteLLM snapshot ccusage
// 20.0.24 embeds in its binary (USD per token; keys i, o, cc, cr for input,
// output, 5-minute cache write and cache read, the same with an "a" suffix
// above 200k tokens, fast for the fast-mode multiplier), plus ccusage's
// fast-mode multiplier overrides by model-name prefix. It is parsed on first
// use, never at init.
//
//go:embed prices.json
var pricesJSON []byte

// Price is one model's prices in USD per token.
type Price struct {
	Input       float64 `json:"i"`
	Output      float64 `json:"o"`
	CacheWrite  float64 `json:"cc"` // 5-minute cache write
	CacheRead   float64 `json:"cr"`
	InputAbove  float64 `json:"ia"` // above 200k tokens, 0 = no tier
	OutputAbove float64 `json:"oa"`
	WriteAbove  float64 `json:"cca"`
	ReadAbove   float64 `json:"cra"`
	Fast        float64 `json:"fast"` // fast-mode multiplier, 0 = none given
}

type priceTable struct {
	models     map[string]*Price
	keys       []string // sorted, for the partial-name fallback
	fastPrefix map[string]float64
	mu         sync.Mutex
	resolved   map[string]*Price // memo of lookups, nil = unpriced
}

var (
	pricesOnce sync.Once
	prices     *priceTable
)

func loadPrices() *priceTable {
	pricesOnce.Do(func() {
		var raw struct {
			FastPrefix map[string]float64 `json:"fastPrefix"`
			Models     map[string]*Price  `json:"models"`
		}
		if err := json.Unmarshal(pricesJSON, &raw); err != nil {
			panic("usage: embedded prices.json: " + err.Error())
		}
		t := &priceTable{models: raw.Models, fastPrefix: raw.FastPrefix, resolved: map[string]*Price{}}
		for k := range raw.Models {
			t.keys = append(t.keys, k)
		}
		sort.Strings(t.keys)
		prices = t
	})
	return prices
}

// providerPrefixes are stripped before a second exact lookup.
var providerPrefixes = []string{"anthropic/", "anthropic.", "bedrock/", "vertex_ai/", "openrouter/anthropic/"}

// PriceFor returns the price of a model (without a "-fast" suffix), or nil
// when the table does not know it. Lookup: exact name, the name without a
// provider prefix, then the first table key (in sorted order) that contains
// the name or is contained in it — so dated or prefixed names resolve as in
// ccusage (claude-sonnet-4-5-2099… → claude-sonnet-4-5).
func PriceFor(model string) *Price {
	t := loadPrices()
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.resolved[model]; ok {
		return p
	}
	p := t.lookup(model)
	t.resolved[model] = p
	return p
}

func (t *priceTable) lookup(model string) *Price {
	if model == "" {
		return nil
	}
	if p, ok := t.models[model]; ok {
		return p
	}
	for _, pre := range providerPrefixes {
		if rest, ok := strings.CutPrefix(model, pre); ok {
			if p, ok := t.models[rest]; ok {
				return p
			}
		}
	}
	lm := strings.ToLower(model)
	for _, k := range t.keys {
		lk := strings.ToLower(k)
		if strings.Contains(lk, lm) || strings.Contains(lm, lk) {
			return t.models[k]
		}
	}
	return nil
}

// fastMultiplier is the cost factor of a fast-mode response.
func fastMultiplier(model string, p *Price) float64 {
	t := loadPrices()
	for pre, m := range t.fastPrefix {
		if strings.HasPrefix(model, pre) {
			return m
		}
	}
	if p != nil && p.Fast > 0 {
		return p.Fast
	}
	return 1
}

const tierThreshold = 200_000

func tiered(tokens int64, base, above float64) float64 {
	if tokens <= 0 {
		return 0
	}
	if tokens > tierThreshold && above > 0 {
		return float64(tierThreshold)*base + float64(tokens-tierThreshold)*above
	}
	return float64(tokens) * base
}

// Cost prices one response: input, output, 5-minute and 1-hour cache
// writes and cache reads, each tiered above 200k tokens separately; a
// 1-hour write costs twice the input price. fast applies the fast-mode
// multiplier. ok is false for a model the table does not know (cost 0).
func Cost(model string, in, out, cache5m, cache1h, cacheRead int64, fast bool) (cost float64, ok bool) {
	return costOf(PriceFor(model), model, in, out, cache5m, cache1h, cacheRead, fast)
}

// costOf is Cost with the model's price already looked up.
func costOf(p *Price, model string, in, out, cache5m, cache1h, cacheRead int64, fast bool) (cost float64, ok bool) {
	if p == nil {
		return 0, false
	}
	write, writeAbove := p.CacheWrite, p.WriteAbove
	if write == 0 { // no cache-write price given: 1.25 × input, as ccusage
		write, writeAbove = 1.25*p.Input, 1.25*p.InputAbove
	}
	c := tiered(in, p.Input, p.InputAbove) +
		tiered(out, p.Output, p.OutputAbove) +
		tiered(cache5m, write, writeAbove) +
		tiered(cache1h, 2*p.Input, 2*p.InputAbove) +
		tiered(cacheRead, p.CacheRead, p.ReadAbove)
	if fast {
		c *= fastMultiplier(model, p)
	}
	return c, true
}

// price sets every entry's cost (each model's price is looked up once).
func (d *Data) price() { d.pricer()(d.Entries) }

// pricer returns the function that sets the cost of entries of d's models
// (safe to call on parts of d.Entries at once).
func (d *Data) pricer() func([]Entry) {
	prices := make([]*Price, len(d.Models))
	for i, m := range d.Models {
		prices[i] = PriceFor(m)
	}
	noModel := PriceFor("")
	return func(es []Entry) { priceEntries(es, d.Models, prices, noModel) }
}

func priceEntries(es []Entry, models []string, prices []*Price, noModel *Price) {
	for i := range es {
		e := &es[i]
		model, p := "", noModel
		if e.Model >= 0 {
			model, p = models[e.Model], prices[e.Model]
		}
		if e.Flags&flagCost != 0 {
			e.cost, e.priced = e.CostUSD, true
		} else {
			e.cost, e.priced = costOf(p, model, e.In, e.Out, e.Cache5m, e.Cache1h, e.CacheRead, e.Flags&flagFast != 0)
		}
	}
}

// ModelName is the name reports show for an entry ("" = none): fast-mode
// responses get a "-fast" suffix.
func (d *Data) ModelName(e *Entry) string {
	if e.Model < 0 {
		return ""
	}
	m := d.Models[e.Model]
	if m == "<synthetic>" {
		return ""
	}
	if e.Flags&flagFast != 0 {
		return m + "-fast"
	}
	return m
}
