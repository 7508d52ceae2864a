package batch

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cronField is one field of a five-field cron schedule: its name, its
// bounds and the names it may use for its values.
type cronField struct {
	name     string
	min, max int
	names    []string
}

var cronFields = []cronField{
	{name: "minute", max: 59},
	{name: "hour", max: 23},
	{name: "day of month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}},
	{name: "day of week", max: 6, names: []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}},
}

// cronDescriptors are the schedules that have a name.
var cronDescriptors = map[string]bool{
	"@yearly": true, "@annually": true, "@monthly": true, "@weekly": true, "@daily": true, "@midnight": true, "@hourly": true,
}

// parseSchedule checks a CronJob schedule as the cron controller reads
// it: five fields or a descriptor. It says what is wrong.
func parseSchedule(schedule string) error {
	if cronDescriptors[schedule] {
		return nil
	}
	if every, ok := strings.CutPrefix(schedule, "@every "); ok {
		if _, err := time.ParseDuration(every); err != nil {
			return fmt.Errorf("failed to parse duration %s: %v", every, err)
		}
		return nil
	}
	if strings.HasPrefix(schedule, "@") {
		return fmt.Errorf("unrecognized descriptor: %s", schedule)
	}
	fields := strings.Fields(schedule)
	if len(fields) != len(cronFields) {
		return fmt.Errorf("expected exactly 5 fields, found %d: %v", len(fields), fields)
	}
	for i, f := range fields {
		for _, item := range strings.Split(f, ",") {
			if err := cronFields[i].check(item); err != nil {
				return fmt.Errorf("%s: %w", cronFields[i].name, err)
			}
		}
	}
	return nil
}

// check checks one item of a field's comma-separated list: *, ?, a value
// or a range, with an optional /step.
func (f cronField) check(item string) error {
	rng, step, stepped := strings.Cut(item, "/")
	if stepped {
		n, err := strconv.Atoi(step)
		if err != nil || n <= 0 {
			return fmt.Errorf("bad step %q in %q", step, item)
		}
	}
	if rng == "*" || rng == "?" {
		return nil
	}
	lo, hi, isRange := strings.Cut(rng, "-")
	low, err := f.value(lo)
	if err != nil {
		return err
	}
	if !isRange {
		return nil
	}
	high, err := f.value(hi)
	if err != nil {
		return err
	}
	if low > high {
		return fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", low, high, item)
	}
	return nil
}

func (f cronField) value(s string) (int, error) {
	for i, name := range f.names {
		if strings.EqualFold(s, name) {
			return f.min + i, nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s", s)
	}
	if n < f.min || n > f.max {
		return 0, fmt.Errorf("%d out of range [%d, %d]", n, f.min, f.max)
	}
	return n, nil
}
