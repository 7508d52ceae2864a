// Package serviceip gives the Services of each logical cluster a cluster
// IP, as kube-apiserver does, so that tools waiting for one (Helm 3's
// --wait, for one) find it; a headless Service (clusterIP: None) stays
// headless, an ExternalName one has none.
//
// The hub allocates from a range of its own (--service-cluster-ip-range),
// each logical cluster separately, rather than copying the downstream
// Service's IP: a Service may run at several targets, each of which
// allocates its own, from its own range, and at none before placement
// assigns it, while a tool waits as soon as it has created it. The
// syncer does not copy the hub's IP downstream (pkg/sync strips
// clusterIP), so the physical clusters allocate theirs as ever. The IP at
// the hub names the Service within its logical cluster; nothing routes to
// it.
//
// An allocation is a claim: an IPAddress (networking.k8s.io/v1, kube's own
// record of an allocated IP since MultiCIDRServiceAllocator) named after
// the IP, in the Service's logical cluster, whose parentRef is the
// Service. The database makes a name unique, so two hub replicas
// allocating at once cannot both claim one IP: the second create finds it
// taken and tries another. The claims are the hub's bookkeeping, stored
// but not served. A Service's create claims an IP before it is stored
// and releases it if the create fails; its delete, or its change to
// ExternalName, releases it. A cluster IP the user gives is claimed too
// when it is within the range, and refused when another Service holds it,
// as kube-apiserver refuses it; one outside the range is kept unclaimed,
// as before. A hub that crashes between a claim and the create it was for
// leaves the claim behind: it holds one address of the range and no
// Service, which nothing repairs yet. A dry run claims nothing and shows
// the range's first address, as kube-apiserver's dry run does.
//
// Around the allocation, before the strategy runs, the package does what
// kube-apiserver's service storage does there (clusterips.go,
// families.go, ported from k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/storage): clusterIPs kept in step with
// clusterIP, allocated values kept over an update that leaves them out,
// and the IP family policy and families set for a cluster of one family,
// the range's. Those fields are validated first, with upstream's
// validation, and a 422 then names their errors alone, as kube-apiserver
// answers, before the strategy validates the rest.
package serviceip
