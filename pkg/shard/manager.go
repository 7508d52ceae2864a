package shard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/validation"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Where the leases live: in root's kube-system, as kube-controller-manager
// keeps its own, so that `kubectl get leases -n kube-system` in root shows
// which replica owns which shard.
const (
	LeaseNamespace    = "kube-system"
	shardLeasePrefix  = "canopy-shard-"
	memberLeasePrefix = "canopy-member-"
)

// The default timings; doc.go says why these.
const (
	DefaultLeaseDuration = 8 * time.Second
	DefaultRenewDeadline = 5 * time.Second
	DefaultRetryPeriod   = time.Second
)

// Leases is what a Manager needs of the store of coordination.k8s.io/v1
// Leases: the hub's registry store, written directly, since the leases
// are the hub's own bookkeeping.
type Leases interface {
	rest.Lister
	rest.Creater
	rest.Updater
	rest.GracefulDeleter
}

// Config is what a Manager is made of.
type Config struct {
	// Leases is the store the replicas sharing a database share the
	// leases in.
	Leases Leases
	// Identity names this replica among those sharing the database, and
	// must be unique to this process: NewIdentity makes one. Its member
	// lease is canopy-member-<Identity>.
	Identity string
	// LeaseDuration is how long another replica waits, from seeing a
	// member lease change, before taking the member's shards if it is
	// still unchanged. Whole seconds. Default DefaultLeaseDuration.
	LeaseDuration time.Duration
	// RenewDeadline is how long after the start of its member lease's
	// last renewal answered in time this replica still owns its shards.
	// Shorter than LeaseDuration, by more than clocks may drift apart in
	// rate and the process may stall. Default DefaultRenewDeadline.
	RenewDeadline time.Duration
	// RetryPeriod is how often the leases are read and the member lease
	// renewed. Shorter than RenewDeadline, to have several tries before
	// it. Default DefaultRetryPeriod.
	RetryPeriod time.Duration
}

// Manager owns this replica's share of the shards, by leases in the
// database all replicas share. It is an Ownership.
type Manager struct {
	leases                                    Leases
	id                                        string
	leaseDuration, renewDeadline, retryPeriod time.Duration

	// start is the origin of ownedUntil, which is read on the monotonic
	// clock so that a change of the wall clock moves no deadline.
	start time.Time
	// ownedUntil is, for each shard, until when since start this replica
	// owns it, in nanoseconds: memberUntil while it holds the shard and
	// has confirmed it since its member lease last lapsed; 0 otherwise.
	ownedUntil [Count]atomic.Int64

	mu     sync.Mutex
	onGain []func(int)

	running atomic.Bool
	// Only Run's goroutine touches what follows, but for held, whose
	// elements the goroutines of one round each touch one of.
	held   [Count]*coordinationv1.Lease // as last written, while held
	member *coordinationv1.Lease        // as last written
	seen   map[string]observation       // by lease name
	// memberUntil is, in nanoseconds since start, the renew deadline
	// after the start of the last renewal of the member lease that
	// succeeded without the one before having lapsed; confirmed tells
	// which held shards this replica has written the lease of since
	// then, and so owns until memberUntil.
	memberUntil int64
	confirmed   [Count]bool
	// listedAt is when the round's list began, which the expiry of the
	// leases it shows is judged at.
	listedAt time.Time
}

// observation is a lease's resourceVersion and when this replica first
// saw it.
type observation struct {
	resourceVersion string
	at              time.Time
}

var _ Ownership = (*Manager)(nil)

// New returns a Manager of the shards of the replica cfg.Identity. It owns
// nothing until it runs.
func New(cfg Config) (*Manager, error) {
	if cfg.Leases == nil {
		return nil, errors.New("shard: Config.Leases is nil; pass the store of coordination.k8s.io/v1 Leases")
	}
	if errs := validation.IsDNS1123Subdomain(memberLeasePrefix + cfg.Identity); cfg.Identity == "" || len(errs) > 0 {
		return nil, fmt.Errorf("shard: the replica identity %q must make a valid Lease name %q (%s); NewIdentity makes one",
			cfg.Identity, memberLeasePrefix+cfg.Identity, strings.Join(errs, "; "))
	}
	m := &Manager{
		leases:        cfg.Leases,
		id:            cfg.Identity,
		leaseDuration: cmpOr(cfg.LeaseDuration, DefaultLeaseDuration),
		renewDeadline: cmpOr(cfg.RenewDeadline, DefaultRenewDeadline),
		retryPeriod:   cmpOr(cfg.RetryPeriod, DefaultRetryPeriod),
		start:         time.Now(),
		seen:          map[string]observation{},
	}
	if m.leaseDuration < time.Second || m.leaseDuration%time.Second != 0 {
		return nil, fmt.Errorf("shard: the lease duration %s must be a whole number of seconds, as a Lease holds it", m.leaseDuration)
	}
	if m.renewDeadline >= m.leaseDuration || m.retryPeriod >= m.renewDeadline || m.retryPeriod <= 0 {
		return nil, fmt.Errorf("shard: the timings must satisfy 0 < retry period (%s) < renew deadline (%s) < lease duration (%s)",
			m.retryPeriod, m.renewDeadline, m.leaseDuration)
	}
	return m, nil
}

func cmpOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// NewIdentity returns an identity for this process: its host name, with
// each character unfit for a Lease name made a dash, and a random suffix.
// The suffix tells apart the replicas of one host, and makes a restarted
// process a new member: it cannot know that the process before it is
// dead, so it waits for that one's leases to expire rather than renewing
// them as its own.
func NewIdentity() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "hub"
	}
	host = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, host)
	host = strings.Trim(host[:min(len(host), 200)], "-")
	if host == "" {
		host = "hub"
	}
	return host + "-" + utilrand.String(5)
}

// Identity is this replica's name among the members.
func (m *Manager) Identity() string { return m.id }

// Owns reports whether this replica owns the shard of cluster: it holds
// the shard's lease, has written it since its member lease last lapsed,
// and renewed its member lease in time less than the renew deadline ago.
func (m *Manager) Owns(cluster logicalcluster.Name) bool {
	return m.since() < m.ownedUntil[Of(cluster)].Load()
}

// OnGain registers f, called in a goroutine of the Manager's with each
// shard gained, once Owns reports it owned.
func (m *Manager) OnGain(f func(shard int)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onGain = append(m.onGain, f)
}

func (m *Manager) since() int64 { return int64(time.Since(m.start)) }

// Run takes part in the shards until ctx ends, then releases what it
// holds at once for the others to take. It runs once.
func (m *Manager) Run(ctx context.Context) {
	if !m.running.CompareAndSwap(false, true) {
		klog.ErrorS(nil, "A shard manager runs only once", "member", m.id)
		return
	}
	register()
	klog.InfoS("Taking part in the shards of logical clusters", "member", m.id, "leaseNamespace", LeaseNamespace,
		"leaseDuration", m.leaseDuration, "renewDeadline", m.renewDeadline, "retryPeriod", m.retryPeriod)
	defer m.releaseAll(ctx)
	ticker := time.NewTicker(m.retryPeriod)
	defer ticker.Stop()
	for {
		m.round(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// leaseContext is ctx for requests to the leases' namespace.
func leaseContext(ctx context.Context) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, LeaseNamespace), logicalcluster.Root)
}

func shardLeaseName(s int) string { return fmt.Sprintf("%s%02d", shardLeasePrefix, s) }

func (m *Manager) memberLeaseName() string { return memberLeasePrefix + m.id }

// outcome is what a round did with one shard.
type outcome int

const (
	unchanged outcome = iota
	gained
	lost
	released
)

// result is what a round did with one shard, and the error of a write
// that failed and is tried again next round, if any.
type result struct {
	outcome
	err error
}

// quiet is the result of a write that failed with err, unless ctx has
// ended, which is no error but a replica stopping.
func quiet(ctx context.Context, o outcome, err error) result {
	if ctx.Err() != nil {
		return result{outcome: o}
	}
	return result{o, err}
}

// round reads the leases, renews this replica's member lease, and then
// renews, acquires or releases each shard's lease as the assignment over
// the live members says. The shards' writes go at once, so that a
// datastore that commits in groups commits them together.
func (m *Manager) round(ctx context.Context) {
	ctx, cancel := context.WithTimeout(leaseContext(ctx), m.renewDeadline)
	defer cancel()
	began := time.Now()
	leases, err := m.list(ctx)
	listed := err == nil
	if listed {
		m.listedAt = began
		m.observe(leases, time.Now())
	} else if ctx.Err() == nil {
		klog.ErrorS(err, "Reading the shard leases; renewing the member lease", "member", m.id)
	}
	m.renewMember(ctx, leases[m.memberLeaseName()])
	var results [Count]result
	var owners [Count]string
	if listed {
		owners = assign(m.live(leases))
		m.forgetDeparted(ctx, leases)
		for s := range Count {
			results[s] = m.reconcile(s, leases[shardLeaseName(s)])
		}
	}
	current := m.since() < m.memberUntil
	var wg sync.WaitGroup
	for s := range Count {
		cur := leases[shardLeaseName(s)]
		mine := cur != nil && holderOf(cur) == m.id
		switch {
		case m.held[s] != nil && listed && owners[s] != m.id:
			wg.Go(func() { results[s] = m.release(ctx, s, m.held[s]) })
		case m.held[s] != nil && !m.confirmed[s] && current:
			wg.Go(func() { results[s] = m.confirm(ctx, s) })
		case m.held[s] == nil && mine && owners[s] != m.id:
			// Written by an acquisition whose answer was lost: no one
			// else may take it while this replica lives, so give it up.
			wg.Go(func() { results[s] = m.release(ctx, s, cur) })
		case m.held[s] == nil && listed && owners[s] == m.id && current:
			wg.Go(func() { results[s] = m.acquire(ctx, s, cur, leases) })
		}
	}
	wg.Wait()
	m.report(results)
}

// reconcile compares shard s's lease as listed, cur, with what this
// replica holds. A lease that names another replica, or is gone, was
// taken, which another may do only once this replica's member lease has
// lapsed, and so its hold on the shard: it is lost. A lease that names
// this replica at another version was written by a confirmation whose
// answer was lost, and is the version to write over next.
func (m *Manager) reconcile(s int, cur *coordinationv1.Lease) result {
	switch {
	case m.held[s] == nil:
	case cur == nil || holderOf(cur) != m.id:
		m.drop(s)
		return result{outcome: lost}
	case cur.ResourceVersion != m.held[s].ResourceVersion:
		m.held[s] = cur
	}
	return result{}
}

// list returns the Leases of the namespace, by name.
func (m *Manager) list(ctx context.Context) (map[string]*coordinationv1.Lease, error) {
	obj, err := m.leases.List(ctx, &metainternalversion.ListOptions{})
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*coordinationv1.LeaseList)
	if !ok {
		return nil, fmt.Errorf("the Lease store listed a %T", obj)
	}
	leases := map[string]*coordinationv1.Lease{}
	for i := range list.Items {
		l := &list.Items[i]
		if strings.HasPrefix(l.Name, shardLeasePrefix) || strings.HasPrefix(l.Name, memberLeasePrefix) {
			leases[l.Name] = l
		}
	}
	return leases, nil
}

// observe records when each lease was first seen as it is now. now is
// after the list answered, so no earlier than its holder began the write
// that made the lease so: a lease judged expired from then has been
// unchanged for at least its duration since its holder's last renewal
// began, whatever the two machines' clocks say.
func (m *Manager) observe(leases map[string]*coordinationv1.Lease, now time.Time) {
	for name, l := range leases {
		if m.seen[name].resourceVersion != l.ResourceVersion {
			m.seen[name] = observation{l.ResourceVersion, now}
		}
	}
	for name := range m.seen {
		if leases[name] == nil {
			delete(m.seen, name)
		}
	}
}

// expired tells whether l has been seen unchanged for its duration by
// the time the round's list began: a list that begins that late shows any
// renewal that its holder had an answer to while it still owned its
// shards.
func (m *Manager) expired(l *coordinationv1.Lease) bool {
	d := m.leaseDuration
	if s := l.Spec.LeaseDurationSeconds; s != nil {
		d = time.Duration(*s) * time.Second
	}
	o, ok := m.seen[l.Name]
	return ok && m.listedAt.Sub(o.at) >= d
}

func holderOf(l *coordinationv1.Lease) string {
	return ptr.Deref(l.Spec.HolderIdentity, "")
}

// live is this replica and the members whose leases are held and not
// expired.
func (m *Manager) live(leases map[string]*coordinationv1.Lease) []string {
	members := []string{m.id}
	for name, l := range leases {
		id, ok := strings.CutPrefix(name, memberLeasePrefix)
		if ok && id != m.id && holderOf(l) != "" && !m.expired(l) {
			members = append(members, id)
		}
	}
	return members
}

// renewMember renews this replica's member lease, creating it if need
// be from listed, its lease as last read. A renewal answered before the
// renew deadline of the last one extends the hold on every confirmed
// shard to the renew deadline after it began. One answered later, or a
// new lease, follows a lapse during which others may have taken the
// shards, their holder's member lease having expired: this replica owns
// none until it confirms each by writing its lease.
func (m *Manager) renewMember(ctx context.Context, listed *coordinationv1.Lease) {
	if m.member == nil && listed != nil {
		m.member = listed
	}
	now := metav1.NowMicro()
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: m.memberLeaseName(), Namespace: LeaseNamespace}}
	if m.member != nil {
		l = m.member.DeepCopy()
	} else {
		l.Spec.AcquireTime = &now
	}
	l.Spec.HolderIdentity = ptr.To(m.id)
	l.Spec.LeaseDurationSeconds = ptr.To(m.leaseSeconds())
	l.Spec.RenewTime = &now
	write := m.update
	if m.member == nil {
		write = m.create
	}
	start := time.Now()
	out, err := write(ctx, l)
	switch {
	case err == nil:
		continuing := m.member != nil && m.since() < m.memberUntil
		m.member = out
		m.memberUntil = int64(start.Sub(m.start) + m.renewDeadline)
		for s := range Count {
			if !continuing {
				m.confirmed[s] = false
				m.ownedUntil[s].Store(0)
			} else if m.confirmed[s] {
				m.ownedUntil[s].Store(m.memberUntil)
			}
		}
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		// Deleted by another replica that judged this one departed, or
		// written by a renewal whose answer was lost: start again from
		// the next list.
		m.member = nil
	case apierrors.IsAlreadyExists(err), ctx.Err() != nil:
	default:
		klog.ErrorS(err, "Renewing the member lease", "member", m.id, "lease", l.Name)
	}
}

func (m *Manager) leaseSeconds() int32 { return int32(m.leaseDuration / time.Second) }

// forgetDeparted deletes the member leases of the members that are gone
// without a word, so that the leases of a hub's past processes do not
// pile up; a member that comes back makes its lease again.
func (m *Manager) forgetDeparted(ctx context.Context, leases map[string]*coordinationv1.Lease) {
	for name, l := range leases {
		if !strings.HasPrefix(name, memberLeasePrefix) || name == m.memberLeaseName() || !m.expired(l) {
			continue
		}
		_, _, err := m.leases.Delete(ctx, name, rest.ValidateAllObjectFunc,
			&metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &l.ResourceVersion}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) && ctx.Err() == nil {
			klog.ErrorS(err, "Deleting the lease of a departed member", "member", m.id, "lease", name)
		}
	}
}

// acquire takes shard s, whose lease is cur (nil when there is none yet)
// for this replica, which the assignment prefers for it, if it is free:
// released; held by a replica whose member lease, in leases, is gone or
// expired; or held by this replica already, as after an acquisition
// whose answer was lost.
func (m *Manager) acquire(ctx context.Context, s int, cur *coordinationv1.Lease, leases map[string]*coordinationv1.Lease) result {
	now := metav1.NowMicro()
	if cur == nil {
		l := &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: shardLeaseName(s), Namespace: LeaseNamespace},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To(m.id), LeaseDurationSeconds: ptr.To(m.leaseSeconds()),
				AcquireTime: &now, RenewTime: &now, LeaseTransitions: ptr.To[int32](0)},
		}
		out, err := m.create(ctx, l)
		if apierrors.IsAlreadyExists(err) {
			return result{}
		}
		if err != nil {
			return quiet(ctx, unchanged, fmt.Errorf("creating the lease: %w", err))
		}
		return m.hold(s, out)
	}
	holder, previous := holderOf(cur), ""
	since := m.seen[cur.Name].at
	member := leases[memberLeasePrefix+holder]
	switch {
	case holder == "":
		previous = previousReleased
	case holder == m.id:
	case member == nil || holderOf(member) == "":
		previous = previousExpired
	case m.expired(member):
		previous, since = previousExpired, m.seen[member.Name].at
	default:
		return result{}
	}
	l := cur.DeepCopy()
	l.Spec.HolderIdentity = ptr.To(m.id)
	l.Spec.LeaseDurationSeconds = ptr.To(m.leaseSeconds())
	l.Spec.RenewTime = &now
	if holder != m.id {
		l.Spec.AcquireTime = &now
		l.Spec.LeaseTransitions = ptr.To(ptr.Deref(l.Spec.LeaseTransitions, 0) + 1)
	}
	out, err := m.update(ctx, l)
	if apierrors.IsConflict(err) {
		return result{}
	}
	if err != nil {
		return quiet(ctx, unchanged, fmt.Errorf("acquiring the lease: %w", err))
	}
	if previous != "" {
		takeoverLatency.WithLabelValues(previous).Observe(time.Since(since).Seconds())
	}
	return m.hold(s, out)
}

// hold records that this replica holds shard s by l, which it has just
// written after its member lease's last renewal.
func (m *Manager) hold(s int, l *coordinationv1.Lease) result {
	m.held[s] = l
	ownedShards.Inc()
	m.own(s)
	return result{outcome: gained}
}

// own makes this replica own shard s, whose lease it has written since
// the last renewal of its member lease, until that renewal's deadline.
// Another replica takes the shard only by writing its lease, after
// judging this replica's member lease expired from a list that began
// later than any renewal answered in time: if it wrote first, this
// replica's write failed; if this replica did, the other's fails.
func (m *Manager) own(s int) {
	m.confirmed[s] = true
	m.ownedUntil[s].Store(m.memberUntil)
}

// confirm writes the lease of shard s, held since before the member
// lease lapsed, to own it again. A conflict means another replica took
// it meanwhile. The shard's controllers skipped its work during the
// lapse, so it is gained anew.
func (m *Manager) confirm(ctx context.Context, s int) result {
	l := m.held[s].DeepCopy()
	l.Spec.RenewTime = ptr.To(metav1.NowMicro())
	l.Spec.LeaseDurationSeconds = ptr.To(m.leaseSeconds())
	out, err := m.update(ctx, l)
	switch {
	case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
		m.drop(s)
		return result{outcome: lost}
	case err != nil:
		return quiet(ctx, unchanged, fmt.Errorf("confirming the lease: %w", err))
	}
	m.held[s] = out
	m.own(s)
	return result{outcome: gained}
}

// drop forgets shard s, which this replica no longer holds.
func (m *Manager) drop(s int) {
	m.ownedUntil[s].Store(0)
	m.confirmed[s] = false
	m.held[s] = nil
	ownedShards.Dec()
}

// release gives shard s, whose lease naming this replica is cur, up for
// another replica to take at once: it stops owning it before the write
// that lets others take it.
func (m *Manager) release(ctx context.Context, s int, cur *coordinationv1.Lease) result {
	if m.held[s] != nil {
		m.drop(s)
	}
	l := cur.DeepCopy()
	l.Spec.HolderIdentity = nil
	if _, err := m.update(ctx, l); err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
		// Tried again next round; the others take it anyway once this
		// replica's member lease is gone or expired.
		return result{released, fmt.Errorf("releasing the lease: %w", err)}
	}
	return result{outcome: released}
}

// releaseAll gives up every shard and the member lease as the replica
// stops, so that the others take its shards within a retry period rather
// than a lease duration. It stops owning all of them before it writes.
func (m *Manager) releaseAll(parent context.Context) {
	for s := range Count {
		m.ownedUntil[s].Store(0)
	}
	ctx, cancel := context.WithTimeout(leaseContext(context.WithoutCancel(parent)), m.renewDeadline)
	defer cancel()
	var results [Count]result
	var wg sync.WaitGroup
	for s := range Count {
		if m.held[s] != nil {
			wg.Go(func() { results[s] = m.release(ctx, s, m.held[s]) })
		}
	}
	wg.Wait()
	if m.member != nil {
		_, _, err := m.leases.Delete(ctx, m.member.Name, rest.ValidateAllObjectFunc,
			&metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &m.member.ResourceVersion}})
		if err != nil && !apierrors.IsNotFound(err) {
			klog.ErrorS(err, "Deleting the member lease", "member", m.id)
		}
		m.member = nil
	}
	m.report(results)
	klog.InfoS("Stopped taking part in the shards", "member", m.id)
}

// report counts and logs what a round did, one line for each change and
// each error however many shards it concerns, and tells the OnGain
// functions of the shards gained.
func (m *Manager) report(results [Count]result) {
	var byOutcome [released + 1][]int
	failed := map[string][]int{}
	for s, r := range results {
		byOutcome[r.outcome] = append(byOutcome[r.outcome], s)
		if r.err != nil {
			failed[r.err.Error()] = append(failed[r.err.Error()], s)
		}
	}
	for err, shards := range failed {
		klog.ErrorS(errors.New(err), "Writing shard leases; trying again next round", "member", m.id, "shards", shards)
	}
	for o, change := range map[outcome]string{gained: changeGained, lost: changeLost, released: changeReleased} {
		if n := len(byOutcome[o]); n > 0 {
			ownershipChanges.WithLabelValues(change).Add(float64(n))
			klog.InfoS("Shards changed hands", "member", m.id, "change", change, "shards", byOutcome[o])
		}
	}
	gainedShards := byOutcome[gained]
	if len(gainedShards) == 0 {
		return
	}
	m.mu.Lock()
	callbacks := m.onGain
	m.mu.Unlock()
	if len(callbacks) == 0 {
		return
	}
	go func() {
		for _, s := range gainedShards {
			for _, f := range callbacks {
				f(s)
			}
		}
	}()
}

func (m *Manager) create(ctx context.Context, l *coordinationv1.Lease) (*coordinationv1.Lease, error) {
	obj, err := m.leases.Create(ctx, l, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		return nil, err
	}
	return asLease(obj)
}

// update writes l if the stored lease still has l's resourceVersion.
func (m *Manager) update(ctx context.Context, l *coordinationv1.Lease) (*coordinationv1.Lease, error) {
	obj, _, err := m.leases.Update(ctx, l.Name, rest.DefaultUpdatedObjectInfo(l),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		return nil, err
	}
	return asLease(obj)
}

func asLease(obj runtime.Object) (*coordinationv1.Lease, error) {
	l, ok := obj.(*coordinationv1.Lease)
	if !ok {
		return nil, fmt.Errorf("the Lease store returned a %T", obj)
	}
	return l, nil
}
