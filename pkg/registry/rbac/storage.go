package rbac

import (
	"context"
	"strings"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic"
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
	s := &Storage{}
	for _, r := range []struct {
		store            **genericregistry.Store
		singular, plural string
		newObj, newList  func() runtime.Object
		strategy         strategy
		table            registry.Table
	}{
		{
			store: &s.roles, singular: "role", plural: "roles",
			newObj:   func() runtime.Object { return &rbacv1.Role{} },
			newList:  func() runtime.Object { return &rbacv1.RoleList{} },
			strategy: roleStrategy(typer), table: createdAt,
		},
		{
			store: &s.clusterRoles, singular: "clusterrole", plural: "clusterroles",
			newObj:   func() runtime.Object { return &rbacv1.ClusterRole{} },
			newList:  func() runtime.Object { return &rbacv1.ClusterRoleList{} },
			strategy: clusterRoleStrategy(typer), table: createdAt,
		},
		{
			store: &s.roleBindings, singular: "rolebinding", plural: "rolebindings",
			newObj:   func() runtime.Object { return &rbacv1.RoleBinding{} },
			newList:  func() runtime.Object { return &rbacv1.RoleBindingList{} },
			strategy: roleBindingStrategy(typer),
			table: bindingTable(func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
				b := o.(*rbacv1.RoleBinding)
				return b.RoleRef, b.Subjects
			}),
		},
		{
			store: &s.clusterRoleBindings, singular: "clusterrolebinding", plural: "clusterrolebindings",
			newObj:   func() runtime.Object { return &rbacv1.ClusterRoleBinding{} },
			newList:  func() runtime.Object { return &rbacv1.ClusterRoleBindingList{} },
			strategy: clusterRoleBindingStrategy(typer),
			table: bindingTable(func(o runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject) {
				b := o.(*rbacv1.ClusterRoleBinding)
				return b.RoleRef, b.Subjects
			}),
		},
	} {
		store := &genericregistry.Store{
			NewFunc:                   r.newObj,
			NewListFunc:               r.newList,
			DefaultQualifiedResource:  rbacv1.Resource(r.plural),
			SingularQualifiedResource: rbacv1.Resource(r.singular),
			CreateStrategy:            r.strategy,
			UpdateStrategy:            r.strategy,
			DeleteStrategy:            r.strategy,
			TableConvertor:            r.table,
		}
		if err := f.Complete(store, rbacv1.SchemeGroupVersion, generic.StoreOptions{}); err != nil {
			return nil, err
		}
		*r.store = store
	}
	return s, nil
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

// bindingTable is Kubernetes' table of bindings: the role, the age, and
// with -o wide the subjects by kind.
func bindingTable(of func(runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject)) registry.Table {
	return registry.Table{
		Columns: []metav1.TableColumnDefinition{registry.Column("Role", "string", "The role the binding grants")},
		Cells: func(o runtime.Object) []any {
			ref, _ := of(o)
			return []any{ref.Kind + "/" + ref.Name}
		},
		Wide: []metav1.TableColumnDefinition{
			registry.Column("Users", "string", "Users the binding applies to"),
			registry.Column("Groups", "string", "Groups the binding applies to"),
			registry.Column("ServiceAccounts", "string", "Service accounts the binding applies to"),
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
