package rbac

import (
	"context"
	"strings"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	rbacv1beta1 "k8s.io/api/rbac/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	rbacauthz "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// Storage holds the registry stores of the four RBAC kinds.
type Storage struct {
	roles, roleBindings, clusterRoles, clusterRoleBindings *genericregistry.Store
}

var _ rbacauthz.Source = &Storage{}

// NewStorage completes the RBAC stores over f's backend.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (*Storage, error) {
	createdAt := registry.Table{NoAge: true,
		Columns: []metav1.TableColumnDefinition{registry.Column("Created At", "date", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"])},
		Cells: func(o runtime.Object) []any {
			m, _ := o.(metav1.Object)
			return []any{m.GetCreationTimestamp().UTC().Format(time.RFC3339)}
		},
	}
	g, err := f.Build(rbacv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "role", Plural: "roles", Strategy: roleStrategy(typer), Table: createdAt,
			New: func() runtime.Object { return &rbacv1.Role{} }, NewList: func() runtime.Object { return &rbacv1.RoleList{} },
		},
		registry.Resource{
			Singular: "clusterrole", Plural: "clusterroles", Strategy: clusterRoleStrategy(typer), Table: createdAt,
			New: func() runtime.Object { return &rbacv1.ClusterRole{} }, NewList: func() runtime.Object { return &rbacv1.ClusterRoleList{} },
		},
		registry.Resource{
			Singular: "rolebinding", Plural: "rolebindings", Strategy: roleBindingStrategy(typer),
			New: func() runtime.Object { return &rbacv1.RoleBinding{} }, NewList: func() runtime.Object { return &rbacv1.RoleBindingList{} },
			Table: bindingTable("roleBinding", rbacv1beta1.RoleBinding{}.SwaggerDoc()["roleRef"], func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
				b := o.(*rbacv1.RoleBinding)
				return b.RoleRef, b.Subjects
			}),
		},
		registry.Resource{
			Singular: "clusterrolebinding", Plural: "clusterrolebindings", Strategy: clusterRoleBindingStrategy(typer),
			New: func() runtime.Object { return &rbacv1.ClusterRoleBinding{} }, NewList: func() runtime.Object { return &rbacv1.ClusterRoleBindingList{} },
			Table: bindingTable("clusterRoleBinding", rbacv1beta1.ClusterRoleBinding{}.SwaggerDoc()["roleRef"], func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
				b := o.(*rbacv1.ClusterRoleBinding)
				return b.RoleRef, b.Subjects
			}),
		},
	)
	if err != nil {
		return nil, err
	}
	return &Storage{roles: g.Stores[0], clusterRoles: g.Stores[1], roleBindings: g.Stores[2], clusterRoleBindings: g.Stores[3]}, nil
}

// Stores are the four stores, for emptying a deleted logical cluster.
func (s *Storage) Stores() []*genericregistry.Store {
	return []*genericregistry.Store{s.roles, s.roleBindings, s.clusterRoles, s.clusterRoleBindings}
}

// ClusterRoles is the ClusterRoles' store, for the aggregation controller.
func (s *Storage) ClusterRoles() *genericregistry.Store { return s.clusterRoles }

// Resources are the REST storage by resource path, for
// genericapiserver.APIGroupInfo.VersionedResourcesStorageMap["v1"]. Writes
// are checked for escalation against what a grants the requester.
func (s *Storage) Resources(a *rbacauthz.Authorizer) map[string]rest.Storage {
	return map[string]rest.Storage{
		"roles":               &guarded{s.roles, roleCheck(a)},
		"clusterroles":        &guarded{s.clusterRoles, roleCheck(a)},
		"rolebindings":        &guarded{s.roleBindings, bindingCheck(a)},
		"clusterrolebindings": &guarded{s.clusterRoleBindings, bindingCheck(a)},
	}
}

// bindingTable is Kubernetes' table of bindings of a kind: the role, the
// age, and with -o wide the subjects by kind, with the descriptions of
// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go,
// which describes the role with rbac/v1beta1's documentation.
func bindingTable(kind, role string, of func(runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject)) registry.Table {
	return registry.Table{
		Columns: []metav1.TableColumnDefinition{registry.Column("Role", "string", role)},
		Cells: func(o runtime.Object) []any {
			ref, _ := of(o)
			return []any{ref.Kind + "/" + ref.Name}
		},
		Wide: []metav1.TableColumnDefinition{
			registry.Column("Users", "string", "Users in the "+kind),
			registry.Column("Groups", "string", "Groups in the "+kind),
			registry.Column("ServiceAccounts", "string", "ServiceAccounts in the "+kind),
		},
		WideCells: func(o runtime.Object) []any {
			_, subjects := of(o)
			var users, groups, sas []string
			for _, s := range subjects {
				switch s.Kind {
				case rbacv1.UserKind:
					users = append(users, s.Name)
				case rbacv1.GroupKind:
					groups = append(groups, s.Name)
				case rbacv1.ServiceAccountKind:
					sas = append(sas, s.Namespace+"/"+s.Name)
				}
			}
			return []any{strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}
		},
	}
}

// The authorizer reads with resourceVersion "0": from the watch cache, as
// it holds the objects now, with no database round trip per request.
var fromCache = &metainternalversion.ListOptions{ResourceVersion: "0"}

func inCluster(ctx context.Context, cluster logicalcluster.Name, namespace string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, namespace), cluster)
}

func (s *Storage) ClusterRoleBindings(ctx context.Context, cluster logicalcluster.Name) ([]*rbacv1.ClusterRoleBinding, error) {
	obj, err := s.clusterRoleBindings.List(inCluster(ctx, cluster, ""), fromCache)
	if err != nil {
		return nil, err
	}
	list := obj.(*rbacv1.ClusterRoleBindingList)
	out := make([]*rbacv1.ClusterRoleBinding, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

func (s *Storage) RoleBindings(ctx context.Context, cluster logicalcluster.Name, namespace string) ([]*rbacv1.RoleBinding, error) {
	obj, err := s.roleBindings.List(inCluster(ctx, cluster, namespace), fromCache)
	if err != nil {
		return nil, err
	}
	list := obj.(*rbacv1.RoleBindingList)
	out := make([]*rbacv1.RoleBinding, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

func (s *Storage) ClusterRole(ctx context.Context, cluster logicalcluster.Name, name string) (*rbacv1.ClusterRole, error) {
	obj, err := getFromCache(inCluster(ctx, cluster, ""), s.clusterRoles, name)
	if obj == nil {
		return nil, err
	}
	return obj.(*rbacv1.ClusterRole), nil
}

func (s *Storage) Role(ctx context.Context, cluster logicalcluster.Name, namespace, name string) (*rbacv1.Role, error) {
	obj, err := getFromCache(inCluster(ctx, cluster, namespace), s.roles, name)
	if obj == nil {
		return nil, err
	}
	return obj.(*rbacv1.Role), nil
}

// getFromCache returns nil, nil for a missing object.
func getFromCache(ctx context.Context, s *genericregistry.Store, name string) (runtime.Object, error) {
	obj, err := s.Get(ctx, name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return obj, nil
}
