package usage

import "strings"

// Prices of the other CLIs' models. OpenAI's (Codex, Copilot) are in the
// embedded LiteLLM table. Gemini's are not: geminiPrices are Google's list
// prices for the Gemini API's paid tier, text input, in USD per million
// tokens, as published at ai.google.dev/gemini-api/docs/pricing (checked
// 2026-07). A Gemini prompt above 200k tokens is billed entirely at the
// long-context rates (not only the part above, as Anthropic's tiers).
type geminiPrice struct {
	in, out, cached          float64
	inLong, outLong, cachedL float64 // prompts above 200k tokens; 0 = same
}

var geminiPrices = map[string]geminiPrice{
	"gemini-3.1-pro-preview": {in: 2, out: 12, cached: 0.20, inLong: 4, outLong: 18, cachedL: 0.40},
	"gemini-3-pro-preview":   {in: 2, out: 12, cached: 0.20, inLong: 4, outLong: 18, cachedL: 0.40},
	"gemini-3-flash-preview": {in: 0.50, out: 3, cached: 0.05},
	"gemini-2.5-pro":         {in: 1.25, out: 10, cached: 0.125, inLong: 2.50, outLong: 15, cachedL: 0.25},
	"gemini-2.5-flash":       {in: 0.30, out: 2.50, cached: 0.03},
	"gemini-2.5-flash-lite":  {in: 0.10, out: 0.40, cached: 0.01},
}

// geminiPriceFor finds a model's price: exact, else the longest known name
// the model starts with (gemini-2.5-flash-preview-09-2025 → gemini-2.5-flash).
func geminiPriceFor(model string) (geminiPrice, bool) {
	m := strings.TrimPrefix(strings.ToLower(model), "models/")
	if p, ok := geminiPrices[m]; ok {
		return p, true
	}
	best := ""
	for k := range geminiPrices {
		if strings.HasPrefix(m, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return geminiPrice{}, false
	}
	return geminiPrices[best], true
}

func (p geminiPrice) cost(e harnessEntry) float64 {
	in, out, cached := p.in, p.out, p.cached
	if e.in+e.cacheRead > 200_000 && p.inLong > 0 {
		in, out, cached = p.inLong, p.outLong, p.cachedL
	}
	return (float64(e.in)*in + float64(e.out)*out + float64(e.cacheRead)*cached) / 1e6
}

// harnessCost prices one entry of harness h; ok is false when no table
// knows the model (it then costs 0 and reports name it).
func harnessCost(h string, e harnessEntry) (float64, bool) {
	if e.model == "" {
		return 0, false
	}
	if p, ok := geminiPriceFor(e.model); ok {
		return p.cost(e), true
	}
	if h == HarnessGemini {
		return 0, false // the LiteLLM table's loose name match is for its own models
	}
	model := e.model
	if strings.HasPrefix(model, "claude-") {
		// Copilot spells Claude's versions with dots (claude-sonnet-4.5).
		model = strings.ReplaceAll(model, ".", "-")
	}
	p := PriceFor(model)
	if p == nil {
		return 0, false
	}
	return costOf(p, model, e.in, e.out, e.cacheW, 0, e.cacheRead, false)
}
