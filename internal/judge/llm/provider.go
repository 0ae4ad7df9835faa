package llm

import "github.com/warden-dev/warden/internal/judge"

// New returns the provider named by a resolved provider name.
func New(name string, getenv func(string) string) Provider {
	switch name {
	case judge.ProviderAnthropic:
		return NewAnthropic(getenv)
	case judge.ProviderClaudeCLI:
		return &ClaudeCLI{}
	}
	return None{}
}
