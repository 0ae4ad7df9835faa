package config

import (
	"strconv"
	"strings"
)

// Kind is the TOML type a key accepts.
type Kind int

const (
	// Int is a whole number; the field is an int.
	Int Kind = iota
	// Float is a number, whole or not; the field is a float64.
	Float
	// Bool is true or false; the field is a bool.
	Bool
	// String is a string, optionally one of Key.Allowed; the field is a string.
	String
	// Strings is a list of strings whose members are, optionally, in
	// Key.Allowed; the field is a []string.
	Strings
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case String:
		return "string"
	case Strings:
		return "list of strings"
	}
	return "unknown"
}

// Policy says what a project file (<project>/.warden/config.toml) may do
// with a key. A project file is written by whoever wrote the repository, not
// by the user, so it may only TIGHTEN guards, never loosen them: a cloned
// repository must not be able to switch a guard off or widen a limit.
//
//   - UserOnly: only the user file may set the key; a project value is
//     reported and ignored.
//   - Free: the key is not a guard (a preference such as a display
//     threshold); the project value overrides the user's.
//   - RaiseOnly / LowerOnly: numbers where a higher (lower) value is
//     stricter; the project value is used only if it is at least (at most)
//     the user's, otherwise it is reported and the user's value stands.
//   - EnableOnly: bools that switch a guard on; a project may set true, and
//     false is ignored (reported only when it would turn off the user's true).
//   - UnionOnly: lists whose members each add a restriction; the project's
//     members are added to the user's, never removed.
type Policy int

const (
	UserOnly Policy = iota
	Free
	RaiseOnly
	LowerOnly
	EnableOnly
	UnionOnly
)

// Policies lists every policy, in the order `config show --defaults` explains them.
func Policies() []Policy {
	return []Policy{UserOnly, Free, RaiseOnly, LowerOnly, EnableOnly, UnionOnly}
}

func (p Policy) String() string {
	switch p {
	case UserOnly:
		return "user-only"
	case Free:
		return "free"
	case RaiseOnly:
		return "raise-only"
	case LowerOnly:
		return "lower-only"
	case EnableOnly:
		return "enable-only"
	case UnionOnly:
		return "union-only"
	}
	return "unknown"
}

// Rule is the one-line explanation of what a project file may do under p.
func (p Policy) Rule() string {
	switch p {
	case UserOnly:
		return "only the user config may set it; a project value is ignored and reported"
	case Free:
		return "not a guard; a project value overrides the user value"
	case RaiseOnly:
		return "a project may raise the value, never lower it below the user value"
	case LowerOnly:
		return "a project may lower the value, never raise it above the user value"
	case EnableOnly:
		return "a project may switch it on (true), never off"
	case UnionOnly:
		return "a project's entries are added to the user's; none are removed"
	}
	return ""
}

// Key defines one configuration key: a row of the registry in keys.go.
type Key struct {
	// Name is dotted: "context.threshold" is `threshold` in table [context].
	Name string
	Kind Kind
	// Default has the Go type of the field: int, float64, bool, string or
	// []string.
	Default any
	// Min and Max bound Int and Float keys, inclusive; both zero means
	// unbounded.
	Min, Max float64
	// Allowed, when not empty, lists the values a String key (or each member
	// of a Strings key) may take.
	Allowed []string
	// Unit is the plural noun of a number ("days", "milliseconds",
	// "percent"), used in docs and in the fix of a problem.
	Unit string
	// Policy is what a project file may do with the key.
	Policy Policy
	// Doc is one sentence for `warden config show --defaults`.
	Doc string
	// Secret: the value is a credential; `config show` prints that it is
	// set, never the value.
	Secret bool
	// Check, when set, validates a String key's value (each member of a
	// Strings key's) beyond its kind; it
	// returns what is wrong and the fix ("" when fine), without repeating
	// the value (it may be a secret).
	Check func(s string) string
	// Field returns a pointer to the key's field in c (*int, *float64, *bool,
	// *string or *[]string). A closure instead of reflection keeps Load cheap.
	Field func(c *Config) any
}

func (k *Key) ranged() bool { return k.Min != 0 || k.Max != 0 }

// Range describes the accepted values: "1..3650", "one of a, b", "true or
// false", or "any".
func (k *Key) Range() string {
	switch {
	case k.Kind == Bool:
		return "true or false"
	case (k.Kind == Int || k.Kind == Float) && k.ranged():
		return formatNumber(k.Min) + ".." + formatNumber(k.Max)
	case len(k.Allowed) > 0:
		return "one of " + strings.Join(k.Allowed, ", ")
	}
	return "any"
}

// DefaultString is the default written as a TOML value.
func (k *Key) DefaultString() string { return FormatValue(k.Default) }

// expect is how a fix names the value wanted: "a whole number of days".
func (k *Key) expect() string {
	switch k.Kind {
	case Int:
		if k.Unit == "percent" {
			return "a whole-number percentage"
		}
		if k.Unit != "" {
			return "a whole number of " + k.Unit
		}
		return "a whole number"
	case Float:
		if k.Unit != "" {
			return "a number of " + k.Unit
		}
		return "a number"
	case Bool:
		return "true or false"
	case String:
		if len(k.Allowed) > 0 {
			return "one of " + quoteAll(k.Allowed)
		}
		return "a quoted string"
	case Strings:
		if len(k.Allowed) > 0 {
			return "a list of " + quoteAll(k.Allowed)
		}
		return `a list of strings like ["a", "b"]`
	}
	return "a valid value"
}

// FormatValue writes a config value (int, float64, bool, string, []string) as
// TOML.
func FormatValue(v any) string {
	switch v := v.(type) {
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return formatNumber(v)
	case bool:
		return strconv.FormatBool(v)
	case string:
		return strconv.Quote(v)
	case []string:
		return "[" + quoteAll(v) + "]"
	}
	return "?"
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
