package placement

import (
	"fmt"
	"strings"
	"time"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// Phase is where a rollout of an object stands.
type Phase string

const (
	PhaseProgressing Phase = "Progressing"
	PhasePaused      Phase = "Paused"
	PhaseFailed      Phase = "Failed"
	PhaseRolledBack  Phase = "RolledBack"
	PhaseComplete    Phase = "Complete"
)

// RolloutState is the record of one object's rollout from revision From
// to revision To, kept on the object so that a hub that restarts goes on
// from it, and never from memory.
type RolloutState struct {
	From string `json:"from,omitempty"`
	To   string `json:"to"`
	// Step is the index of the step in progress among the rollout's
	// steps; len(steps) once every step is done.
	Step  int   `json:"step"`
	Phase Phase `json:"phase"`
	// Since is when the step started; HealthySince when every target of
	// it last turned healthy, zero while one is not.
	Since        time.Time `json:"since"`
	HealthySince time.Time `json:"healthySince,omitzero"`
	// Message says what the rollout waits for (as of the step's start,
	// for its first waitsQuiet), or why it stopped.
	Message string `json:"message,omitempty"`
}

// Progress is what a look at a rollout decides: the state to record,
// the revision each target is to run, and when to look again, zero for
// only on a change.
type Progress struct {
	State     RolloutState
	Revisions map[string]string
	RecheckAt time.Time
	// Event is what happened, for an Event, empty if nothing did; Warning
	// says whether it is a failure.
	Event   string
	Warning bool
}

// Advance decides the next move of rollout state s over steps, at now,
// given whether each target is healthy on s.To (healthy, with why not),
// under p's soak time, deadline and failure policy. A step is done once
// each of its targets has been healthy for the soak time; the next then
// starts at once. One not healthy by the deadline fails: the rollout
// pauses or, with Rollback, every target goes back to s.From. A paused,
// failed, rolled back or complete rollout moves no target.
func (p *Policy) Advance(s RolloutState, steps []Step, healthy func(key string) (bool, string), now time.Time) Progress {
	soak, deadline, onFailure := p.RolloutTiming()
	out := Progress{State: s}
	if s.Phase == PhaseProgressing {
		p.advance(&out, steps, healthy, now, soak, deadline, onFailure)
	}
	out.Revisions = revisions(out.State, steps)
	return out
}

// waitsQuiet is how long into a step the message of what it waits for
// stays as the step's start wrote it. Each report of a wave's target can
// change what the wave waits for, and each change written is a write of
// the rolled-out object, which reaches every target's syncer: a wave that
// goes well is then written once, as it starts and as it ends, and one
// still waiting after waitsQuiet has its message brought up to date.
const waitsQuiet = 5 * time.Second

func (p *Policy) advance(out *Progress, steps []Step, healthy func(key string) (bool, string), now time.Time, soak, deadline time.Duration, onFailure placementv1alpha1.RolloutFailurePolicy) {
	s := &out.State
	var done []string
	defer func() {
		if out.Event == "" && len(done) > 0 {
			out.Event = strings.Join(done, "; ")
		}
	}()
	for s.Step < len(steps) {
		step := steps[s.Step]
		var why string
		for _, key := range step.Keys {
			if ok, reason := healthy(key); !ok {
				why = fmt.Sprintf("target %s: %s", key, reason)
				break
			}
		}
		if why != "" {
			wasHealthy := !s.HealthySince.IsZero()
			s.HealthySince = time.Time{}
			if now.Sub(s.Since) < deadline {
				out.RecheckAt = s.Since.Add(deadline)
				waits := fmt.Sprintf("wave %s (step %d of %d) waits: ", step.Wave, s.Step+1, len(steps))
				if strings.HasPrefix(s.Message, waits) && !wasHealthy && now.Sub(s.Since) < waitsQuiet {
					out.RecheckAt = s.Since.Add(min(deadline, waitsQuiet))
					return
				}
				s.Message = waits + why
				return
			}
			s.Message = fmt.Sprintf("wave %s (step %d of %d) not healthy within %s: %s", step.Wave, s.Step+1, len(steps), deadline, why)
			out.Warning = true
			if onFailure == placementv1alpha1.RolloutRollback && s.From != "" {
				s.Phase = PhaseRolledBack
				out.Event = s.Message + "; rolled back to revision " + s.From
			} else {
				s.Phase = PhaseFailed
				out.Event = s.Message + "; paused"
			}
			return
		}
		if s.HealthySince.IsZero() {
			s.HealthySince = now
		}
		if now.Sub(s.HealthySince) < soak {
			s.Message = fmt.Sprintf("wave %s (step %d of %d) healthy, soaking until %s", step.Wave, s.Step+1, len(steps), s.HealthySince.Add(soak).UTC().Format(time.RFC3339))
			out.RecheckAt = s.HealthySince.Add(soak)
			return
		}
		s.Step++
		s.Since, s.HealthySince = now, time.Time{}
		done = append(done, fmt.Sprintf("wave %s (step %d of %d) healthy", step.Wave, s.Step, len(steps)))
	}
	s.Phase = PhaseComplete
	s.Message = "every target runs revision " + s.To
	done = append(done, s.Message)
}

// revisions are the revision each target of steps runs in state s: To
// for the targets of the steps done and of the step in progress, From
// for the others; From for every target once rolled back.
func revisions(s RolloutState, steps []Step) map[string]string {
	out := map[string]string{}
	for i, step := range steps {
		rev := s.To
		if s.Phase == PhaseRolledBack || i > s.Step && s.From != "" {
			rev = s.From
		}
		for _, key := range step.Keys {
			out[key] = rev
		}
	}
	return out
}
