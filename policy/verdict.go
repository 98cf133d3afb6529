package policy

import "fmt"

// ParseVerdict parses "allow", "ask" or "deny".
func ParseVerdict(s string) (Verdict, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Deny, fmt.Errorf("invalid verdict %q: want allow, ask or deny", s)
}

// MarshalText renders v as "allow", "ask" or "deny"; it is what JSON
// uses, so a Decision marshals to {"decision":"allow",…}.
func (v Verdict) MarshalText() ([]byte, error) {
	if v > Allow {
		return nil, fmt.Errorf("invalid verdict %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText parses "allow", "ask" or "deny".
func (v *Verdict) UnmarshalText(b []byte) error {
	w, err := ParseVerdict(string(b))
	if err != nil {
		return err
	}
	*v = w
	return nil
}

// stricter returns the stricter of two verdicts. A verdict out of range
// counts as Deny.
func stricter(a, b Verdict) Verdict {
	a, b = clamp(a), clamp(b)
	return min(a, b)
}

func clamp(v Verdict) Verdict {
	if v > Allow {
		return Deny
	}
	return v
}
