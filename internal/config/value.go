package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// defaultsFrom builds a Config holding the defaults of the keys in reg.
func defaultsFrom(reg []Key) *Config {
	c := &Config{}
	for i := range reg {
		setField(c, &reg[i], reg[i].Default)
	}
	return c
}

// setField stores v (already converted to the field's Go type) in k's field.
// Lists are copied so a Config never shares memory with the registry.
func setField(c *Config, k *Key, v any) {
	switch p := k.Field(c).(type) {
	case *int:
		*p = v.(int)
	case *float64:
		*p = v.(float64)
	case *bool:
		*p = v.(bool)
	case *string:
		*p = v.(string)
	case *[]string:
		*p = append(make([]string, 0, len(v.([]string))), v.([]string)...)
	default:
		panic(fmt.Sprintf("config: key %s: unsupported field type %T", k.Name, p))
	}
}

// getField returns the value of k's field in c.
func getField(c *Config, k *Key) any {
	switch p := k.Field(c).(type) {
	case *int:
		return *p
	case *float64:
		return *p
	case *bool:
		return *p
	case *string:
		return *p
	case *[]string:
		return *p
	}
	return nil
}

// number returns a numeric field value as float64 for comparisons.
func number(v any) float64 {
	switch v := v.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// convert checks a decoded TOML value against k and returns it as the
// field's Go type, or a message that names the key, what is wrong and the fix.
func convert(k *Key, raw any) (any, string) {
	switch k.Kind {
	case Int:
		n, ok := raw.(int64)
		if !ok {
			return nil, wrongType(k, raw)
		}
		if k.ranged() && (float64(n) < k.Min || float64(n) > k.Max) {
			return nil, outOfRange(k, raw)
		}
		return int(n), ""
	case Float:
		var f float64
		switch n := raw.(type) {
		case int64:
			f = float64(n)
		case float64:
			f = n
		default:
			return nil, wrongType(k, raw)
		}
		if k.ranged() && (f < k.Min || f > k.Max || f != f) {
			return nil, outOfRange(k, raw)
		}
		return f, ""
	case Bool:
		b, ok := raw.(bool)
		if !ok {
			return nil, wrongType(k, raw)
		}
		return b, ""
	case String:
		s, ok := raw.(string)
		if !ok {
			return nil, wrongType(k, raw)
		}
		if len(k.Allowed) > 0 && !slices.Contains(k.Allowed, s) {
			return nil, notAllowed(k, raw)
		}
		if k.Check != nil {
			if msg := k.Check(s); msg != "" {
				return nil, k.Name + ": " + msg
			}
		}
		return s, ""
	case Strings:
		list, ok := raw.([]any)
		if !ok {
			return nil, wrongType(k, raw)
		}
		out := make([]string, 0, len(list))
		for _, m := range list {
			s, ok := m.(string)
			if !ok {
				return nil, wrongType(k, raw)
			}
			if len(k.Allowed) > 0 && !slices.Contains(k.Allowed, s) {
				return nil, fmt.Sprintf("%s contains %q, which is not allowed; set it to %s, default %s",
					k.Name, s, k.expect(), k.DefaultString())
			}
			if k.Check != nil {
				if msg := k.Check(s); msg != "" {
					return nil, k.Name + ": " + msg
				}
			}
			out = append(out, s)
		}
		return out, ""
	}
	return nil, fmt.Sprintf("%s has an unsupported kind in the registry", k.Name)
}

func wrongType(k *Key, raw any) string {
	if _, ok := raw.(map[string]any); ok {
		return fmt.Sprintf("%s is a table; set it to %s, default %s", k.Name, k.expect(), k.DefaultString())
	}
	return fmt.Sprintf("%s = %s is %s; set it to %s, default %s",
		k.Name, rawString(raw), tomlType(raw), k.expect(), k.DefaultString())
}

func outOfRange(k *Key, raw any) string {
	return fmt.Sprintf("%s = %s is out of range %s; set it to %s, default %s",
		k.Name, rawString(raw), k.Range(), k.expect(), k.DefaultString())
}

func notAllowed(k *Key, raw any) string {
	return fmt.Sprintf("%s = %s is not allowed; set it to %s, default %s",
		k.Name, rawString(raw), k.expect(), k.DefaultString())
}

// tomlType names the type of a decoded TOML value for a message.
func tomlType(raw any) string {
	switch raw.(type) {
	case int64:
		return "a whole number"
	case float64:
		return "a fractional number"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("a %T", raw)
}

// rawString writes a decoded TOML value back roughly as it was written,
// cut short so a message stays one line.
func rawString(raw any) string {
	var s string
	switch v := raw.(type) {
	case int64, float64, bool, string:
		s = FormatValue(v)
	case []any:
		parts := make([]string, len(v))
		for i, m := range v {
			parts[i] = rawString(m)
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	default:
		s = fmt.Sprint(v)
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
