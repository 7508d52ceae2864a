package customresource

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/client-go/scale"
	"k8s.io/kube-openapi/pkg/spec3"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/canopy-dev/canopy/pkg/boundedencoding"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// served is how one definition's objects are served: by version, their
// stores and request scopes. It depends on the definition's spec and
// accepted names only, so every installation of the same definition, in
// any logical cluster, shares one.
type served struct {
	versions       map[string]*servedVersion
	storageVersion string
	// openAPI are the OpenAPI v3 documents of the versions, which
	// describe them to clients and to server-side apply.
	openAPI map[string]*spec3.OpenAPI
	// hash is the hash of the definition's content, which all served
	// is made of.
	hash [sha256.Size]byte
}

// servedVersion is one version of a definition, served or stored.
type servedVersion struct {
	served bool
	main   *customresource.REST
	// status and scale are nil for a version without the subresource.
	status                         *registry.Status
	scale                          *customresource.ScaleREST
	scope, statusScope, scaleScope *handlers.RequestScope
	// attrs are the labels and fields of an object at this version, its
	// selectable fields among them.
	attrs storage.AttrFunc
	// warnings are told to every client of a deprecated version.
	warnings []string
}

// build is what building a served needs of the hub.
type build struct {
	converters converterFactory
	// storage is the shared unstructured storage of a group resource.
	storage             func(schema.GroupResource) (storage.Interface, error)
	authorizer          authorizer.Authorizer
	maxRequestBodyBytes int64
	limits              Limits
}

// definition is what the versions of one definition share while they
// are built.
type definition struct {
	build
	crd                            *apiextensionsv1.CustomResourceDefinition
	schemas                        schemas
	typeConverter                  managedfields.TypeConverter
	safeConverter, unsafeConverter runtime.ObjectConvertor
	// storage is the group resource's shared storage, writing at the
	// storage version.
	storage       storage.Interface
	replicasPaths managedfields.ResourcePathMappings
	equivalents   runtime.EquivalentResourceMapper
}

// converterFactory makes a definition's converters: upstream's
// conversion.CRConverterFactory.
type converterFactory interface {
	NewConverter(crd *apiextensionsv1.CustomResourceDefinition) (safe, unsafe runtime.ObjectConvertor, err error)
}

// errServing is what a client is told of a definition the hub cannot
// serve, which validation should have refused: the details are logged.
func errServing(crd *apiextensionsv1.CustomResourceDefinition, what string, err error) error {
	return fmt.Errorf("the hub cannot serve the %s of CustomResourceDefinition %s: %w", what, crd.Name, err)
}

// newServed builds how crd's objects are served, as upstream's
// getOrCreateServingInfoFor does, but over the storage every definition of
// the same group resource shares.
func (b build) newServed(crd *apiextensionsv1.CustomResourceDefinition) (*served, error) {
	names := crd.Status.AcceptedNames
	if names.Plural == "" || names.Singular == "" || names.Kind == "" || names.ListKind == "" {
		return nil, errServing(crd, "names", fmt.Errorf("its accepted names %+v are incomplete", names))
	}
	storageVersion, err := apihelpers.GetCRDStorageVersion(crd)
	if err != nil {
		return nil, errServing(crd, "storage version", err)
	}
	schemas, err := structuralSchemas(crd)
	if err != nil {
		return nil, err
	}
	openAPI, typeConverter, err := openAPIOf(crd)
	if err != nil {
		return nil, errServing(crd, "OpenAPI schemas", err)
	}
	safeConverter, unsafeConverter, err := b.converters.NewConverter(crd)
	if err != nil {
		return nil, errServing(crd, "conversion", err)
	}
	gr := schema.GroupResource{Group: crd.Spec.Group, Resource: names.Plural}
	shared, err := b.storage(gr)
	if err != nil {
		return nil, err
	}
	d := definition{
		build: b, crd: crd, schemas: schemas, typeConverter: typeConverter, safeConverter: safeConverter, unsafeConverter: unsafeConverter,
		storage: writeAt{shared, coercingConverter{safeConverter, coercer{schemas: schemas}}, schema.GroupVersion{Group: crd.Spec.Group, Version: storageVersion},
			schemas},
		replicasPaths: managedfields.ResourcePathMappings{},
	}

	equivalents := runtime.NewEquivalentResourceRegistry()
	d.equivalents = equivalents
	for _, v := range crd.Spec.Versions {
		gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
		subresources, err := apihelpers.GetSubresourcesForVersion(crd, v.Name)
		if err != nil {
			return nil, errServing(crd, "subresources", err)
		}
		d.replicasPaths[gv.String()] = nil
		kind, resource := gv.WithKind(names.Kind), gv.WithResource(names.Plural)
		equivalents.RegisterKindFor(resource, "", kind)
		if subresources != nil && subresources.Status != nil {
			equivalents.RegisterKindFor(resource, "status", kind)
		}
		if subresources != nil && subresources.Scale != nil {
			equivalents.RegisterKindFor(resource, "scale", autoscalingv1.SchemeGroupVersion.WithKind("Scale"))
			var path fieldpath.Path
			for _, name := range strings.Split(strings.TrimPrefix(subresources.Scale.SpecReplicasPath, "."), ".") {
				path = append(path, fieldpath.PathElement{FieldName: &name})
			}
			d.replicasPaths[gv.String()] = path
		}
	}

	s := &served{versions: map[string]*servedVersion{}, storageVersion: storageVersion, openAPI: openAPI}
	for _, v := range crd.Spec.Versions {
		if !v.Served && !v.Storage {
			continue
		}
		sv, err := d.version(v)
		if err != nil {
			return nil, err
		}
		s.versions[v.Name] = sv
	}
	// The status of every version is reset by server-side apply of any.
	statusReset := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, sv := range s.versions {
		if sv.status != nil {
			for apiVersion, set := range sv.status.GetResetFields() {
				statusReset[apiVersion] = set
			}
		}
	}
	for name, sv := range s.versions {
		scope := *sv.scope
		scope.Subresource = "status"
		if sv.status != nil {
			if scope, err = withFieldManager(typeConverter, scope, statusReset, "status"); err != nil {
				return nil, errServing(crd, "status of version "+name, err)
			}
		}
		sv.statusScope = &scope
	}
	return s, nil
}

// version builds how version v of the definition is served.
func (d definition) version(v apiextensionsv1.CustomResourceDefinitionVersion) (*servedVersion, error) {
	crd, names := d.crd, d.crd.Status.AcceptedNames
	gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
	kind, listKind := gv.WithKind(names.Kind), gv.WithKind(names.ListKind)
	gr := schema.GroupResource{Group: crd.Spec.Group, Resource: names.Plural}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped

	// Options decode as the unversioned types of the version, as
	// upstream has them.
	parameters := runtime.NewScheme()
	parameters.AddUnversionedTypes(gv, &metav1.ListOptions{}, &metav1.GetOptions{}, &metav1.DeleteOptions{})
	typer := newTyper(parameters)

	validationSchema, err := apihelpers.GetSchemaForVersion(crd, v.Name)
	if err != nil {
		return nil, errServing(crd, "schema of version "+v.Name, err)
	}
	internalValidation := &apiextensions.CustomResourceValidation{}
	if validationSchema != nil {
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validationSchema, internalValidation, nil); err != nil {
			return nil, errServing(crd, "schema of version "+v.Name, err)
		}
	}
	validator, _, err := validation.NewSchemaValidator(internalValidation.OpenAPIV3Schema)
	if err != nil {
		return nil, errServing(crd, "schema of version "+v.Name, err)
	}
	subresources, err := apihelpers.GetSubresourcesForVersion(crd, v.Name)
	if err != nil {
		return nil, errServing(crd, "subresources of version "+v.Name, err)
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator validation.SchemaValidator
	if subresources != nil && subresources.Status != nil {
		statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
		// The status subresource validates against the status schema only.
		if s := internalValidation.OpenAPIV3Schema; s != nil {
			if status, ok := s.Properties["status"]; ok {
				if statusValidator, _, err = validation.NewSchemaValidator(&status); err != nil {
					return nil, errServing(crd, "status schema of version "+v.Name, err)
				}
			}
		}
	}
	var scaleSpec *apiextensions.CustomResourceSubresourceScale
	if subresources != nil && subresources.Scale != nil {
		scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scaleSpec, nil); err != nil {
			return nil, errServing(crd, "scale subresource of version "+v.Name, err)
		}
	}
	table, err := tableconvertor.New(columns(v))
	if err != nil {
		return nil, errServing(crd, "printer columns of version "+v.Name, err)
	}

	strategy := customresource.NewStrategy(typer, namespaced, kind, validator, statusValidator, d.schemas.byVersion[v.Name], statusSpec, scaleSpec, v.SelectableFields)
	storages, err := customresource.NewStorage(gr, schema.GroupResource{Group: gr.Group, Resource: names.Singular}, kind, listKind, strategy,
		registry.UnstructuredOptions(gr, d.storage), names.Categories, table, d.replicasPaths)
	if err != nil {
		return nil, errServing(crd, "storage of version "+v.Name, err)
	}
	registry.Adopt(storages.CustomResource.Store)
	d.limits.guard(storages.CustomResource.Store)
	sv := &servedVersion{served: v.Served, main: storages.CustomResource, scale: storages.Scale, attrs: strategy.GetAttrs}
	// Upstream's status store is a copy of the main one taken before it
	// was adopted; this one is taken after.
	if statusSpec != nil {
		sv.status = registry.NewStatus(storages.CustomResource.Store, customresource.NewStatusStrategy(strategy))
	}

	negotiated := newSerializer(typer, coercingConverter{d.safeConverter, coercer{schemas: d.schemas}}, d.schemas)
	scope := handlers.RequestScope{
		Namer:                    handlers.ContextBasedNaming{Namer: meta.NewAccessor(), ClusterScoped: !namespaced},
		Serializer:               negotiated,
		ParameterCodec:           runtime.NewParameterCodec(parameters),
		StandardSerializers:      negotiated.standard(),
		Creater:                  unstructuredCreator{},
		Convertor:                d.safeConverter,
		Defaulter:                defaulter{delegate: parameters, schemas: d.schemas},
		Typer:                    typer,
		UnsafeConvertor:          d.unsafeConverter,
		Authorizer:               d.authorizer,
		EquivalentResourceMapper: d.equivalents,
		Resource:                 gv.WithResource(names.Plural),
		Kind:                     kind,
		// A version's handler holds objects at that version in memory.
		HubGroupVersion:     gv,
		MetaGroupVersion:    metav1.SchemeGroupVersion,
		TableConvertor:      storages.CustomResource,
		MaxRequestBodyBytes: d.maxRequestBodyBytes,
	}
	if scope, err = withFieldManager(d.typeConverter, scope, storages.CustomResource.GetResetFields(), ""); err != nil {
		return nil, errServing(crd, "field manager of version "+v.Name, err)
	}
	sv.scope = &scope

	scaleScope := scope
	scaleScope.Subresource = "scale"
	scaleScope.Serializer = scaleCodecs
	scaleScope.Kind = autoscalingv1.SchemeGroupVersion.WithKind("Scale")
	scaleTable, err := tableconvertor.New(scaleColumns(v))
	if err != nil {
		return nil, errServing(crd, "scale columns of version "+v.Name, err)
	}
	scaleScope.TableConvertor = scaleTable
	if scaleSpec != nil {
		if scaleScope, err = withFieldManager(d.typeConverter, scaleScope, nil, "scale"); err != nil {
			return nil, errServing(crd, "scale field manager of version "+v.Name, err)
		}
	}
	sv.scaleScope = &scaleScope

	if v.Deprecated {
		if v.DeprecationWarning != nil {
			sv.warnings = []string{*v.DeprecationWarning}
		} else {
			sv.warnings = []string{deprecationWarning(v.Name, crd.Spec)}
		}
	}
	return sv, nil
}

// structuralSchemas are crd's structural schemas by version, with the
// defaults that pruning would drop pruned, as objects are defaulted and
// pruned with them.
func structuralSchemas(crd *apiextensionsv1.CustomResourceDefinition) (schemas, error) {
	s := schemas{byVersion: map[string]*structuralschema.Structural{}, gk: schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Status.AcceptedNames.Kind},
		preserveUnknownFields: crd.Spec.PreserveUnknownFields}
	for _, v := range crd.Spec.Versions {
		val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return s, errServing(crd, "schema of version "+v.Name, err)
		}
		if val == nil {
			continue
		}
		internal := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
			return s, errServing(crd, "schema of version "+v.Name, err)
		}
		structural, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if crd.Spec.PreserveUnknownFields {
			s.byVersion[v.Name] = structural
			continue
		}
		if err != nil {
			return s, errServing(crd, "schema of version "+v.Name, err)
		}
		// The structural schema shares the defaults of the definition.
		structural = structural.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(structural); err != nil {
			return s, errServing(crd, "defaults of version "+v.Name, err)
		}
		s.byVersion[v.Name] = structural
	}
	return s, nil
}

// openAPIOf are the OpenAPI v3 documents of crd's versions, and what
// server-side apply knows of its objects: the models of all of them,
// which bring ObjectMeta's along.
func openAPIOf(crd *apiextensionsv1.CustomResourceDefinition) (map[string]*spec3.OpenAPI, managedfields.TypeConverter, error) {
	docs := map[string]*spec3.OpenAPI{}
	var specs []*spec3.OpenAPI
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, nil, err
		}
		docs[v.Name] = s
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, nil, err
	}
	typeConverter, err := managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
	return docs, typeConverter, err
}

func withFieldManager(typeConverter managedfields.TypeConverter, scope handlers.RequestScope, resetFields map[fieldpath.APIVersion]*fieldpath.Set, subresource string) (handlers.RequestScope, error) {
	fm, err := managedfields.NewDefaultCRDFieldManager(typeConverter, scope.Convertor, scope.Defaulter, scope.Creater, scope.Kind,
		scope.HubGroupVersion, subresource, fieldpath.NewExcludeFilterSetMap(resetFields))
	if err != nil {
		return handlers.RequestScope{}, err
	}
	scope.FieldManager = fm
	return scope, nil
}

// scaleCodecs serialize the autoscaling/v1 Scale of a scale subresource.
var scaleCodecs = boundedencoding.NegotiatedSerializer(runtimeserializer.NewCodecFactory(scale.NewScaleConverter().Scheme(),
	runtimeserializer.WithStreamingCollectionEncodingToJSON(), runtimeserializer.WithStreamingCollectionEncodingToProtobuf()))

var metaDescriptions = metav1.ObjectMeta{}.SwaggerDoc()

var ageColumn = apiextensionsv1.CustomResourceColumnDefinition{
	Name: "Age", Type: "date", Description: metaDescriptions["creationTimestamp"], JSONPath: ".metadata.creationTimestamp",
}

// columns are what kubectl get prints of a version's objects: its
// additional printer columns, or else their age.
func columns(v apiextensionsv1.CustomResourceDefinitionVersion) []apiextensionsv1.CustomResourceColumnDefinition {
	if len(v.AdditionalPrinterColumns) > 0 {
		return v.AdditionalPrinterColumns
	}
	return []apiextensionsv1.CustomResourceColumnDefinition{ageColumn}
}

// scaleColumns are what kubectl get prints of a version's scale
// subresource.
func scaleColumns(v apiextensionsv1.CustomResourceDefinitionVersion) []apiextensionsv1.CustomResourceColumnDefinition {
	var cols []apiextensionsv1.CustomResourceColumnDefinition
	if s := v.Subresources; s != nil && s.Scale != nil {
		if s.Scale.SpecReplicasPath != "" {
			cols = append(cols, apiextensionsv1.CustomResourceColumnDefinition{Name: "Desired", Type: "integer", Description: "Number of desired replicas", JSONPath: ".spec.replicas"})
		}
		if s.Scale.StatusReplicasPath != "" {
			cols = append(cols, apiextensionsv1.CustomResourceColumnDefinition{Name: "Available", Type: "integer", Description: "Number of actual replicas", JSONPath: ".status.replicas"})
		}
	}
	return append(cols, ageColumn)
}

// deprecationWarning is upstream's warning for a deprecated version
// without one of its own: which newer version to use instead.
func deprecationWarning(deprecated string, spec apiextensionsv1.CustomResourceDefinitionSpec) string {
	msg := fmt.Sprintf("%s/%s %s is deprecated", spec.Group, deprecated, spec.Names.Kind)
	var newer []string
	for _, v := range spec.Versions {
		if v.Served && !v.Deprecated && version.CompareKubeAwareVersionStrings(deprecated, v.Name) < 0 {
			newer = append(newer, v.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	sort.Slice(newer, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(newer[i], newer[j]) > 0 })
	return msg + fmt.Sprintf("; use %s/%s %s", spec.Group, newer[0], spec.Names.Kind)
}
