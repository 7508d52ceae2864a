package crd

// The five definitions every logical cluster installs, as operators ship
// them: validation with CEL rules (one a transition rule), defaults,
// status and scale subresources, printer columns, selectable fields, a
// cluster-scoped one and one of two versions with conversion None. Each
// comes with an object of its kind to create.
type definition struct {
	// resource is the plural of the definition's objects, group their
	// API group and version the version they are created at.
	resource, group, version string
	namespaced               bool
	manifest                 string
	// object is a valid object, without metadata.name, which is added.
	object string
}

var definitions = []definition{
	{
		resource: "databases", group: "db.example.com", version: "v1", namespaced: true,
		manifest: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.db.example.com
spec:
  group: db.example.com
  scope: Namespaced
  names: {plural: databases, singular: database, kind: Database, listKind: DatabaseList, shortNames: [db], categories: [all]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Engine, type: string, jsonPath: .spec.engine}
    - {name: Version, type: string, jsonPath: .spec.version}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        description: A managed database instance.
        properties:
          spec:
            type: object
            required: [engine]
            properties:
              engine: {type: string, enum: [postgres, mysql, mariadb], description: The database engine.}
              version: {type: string, default: "16", maxLength: 16}
              storageGB: {type: integer, minimum: 1, maximum: 65536, default: 20}
              highAvailability: {type: boolean, default: false}
              backup:
                type: object
                default: {}
                properties:
                  enabled: {type: boolean, default: true}
                  retentionDays: {type: integer, minimum: 1, maximum: 365, default: 7}
              parameters:
                type: object
                additionalProperties: {type: string}
            x-kubernetes-validations:
            - rule: "self.engine != 'postgres' || self.storageGB >= 10"
              message: postgres needs at least 10 GB of storage
            - rule: "!self.highAvailability || self.storageGB >= 50"
              message: high availability needs at least 50 GB
          status:
            type: object
            properties:
              endpoint: {type: string}
              observedGeneration: {type: integer, format: int64}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string, enum: ["True", "False", Unknown]}
                    reason: {type: string}
                    message: {type: string}
                    lastTransitionTime: {type: string, format: date-time}
`,
		object: `{"apiVersion":"db.example.com/v1","kind":"Database","spec":{"engine":"postgres","storageGB":40,"parameters":{"max_connections":"200"}}}`,
	},
	{
		resource: "webapps", group: "apps.example.com", version: "v1", namespaced: true,
		manifest: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: webapps.apps.example.com
spec:
  group: apps.example.com
  scope: Namespaced
  names: {plural: webapps, singular: webapp, kind: WebApp, listKind: WebAppList, shortNames: [wa]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    additionalPrinterColumns:
    - {name: Image, type: string, jsonPath: .spec.image}
    - {name: Desired, type: integer, jsonPath: .spec.replicas}
    - {name: Ready, type: integer, jsonPath: .status.readyReplicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [image]
            properties:
              image: {type: string, pattern: '^[a-z0-9./:@_-]+$'}
              replicas: {type: integer, minimum: 0, default: 1}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name, port]
                  properties:
                    name: {type: string}
                    port: {type: integer, minimum: 1, maximum: 65535}
                    protocol: {type: string, enum: [TCP, UDP], default: TCP}
              env:
                type: array
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    value: {type: string}
              resources:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              replicas: {type: integer}
              readyReplicas: {type: integer}
              selector: {type: string}
`,
		object: `{"apiVersion":"apps.example.com/v1","kind":"WebApp","spec":{"image":"nginx:1.27","replicas":2,"ports":[{"name":"http","port":80}],"env":[{"name":"MODE","value":"prod"}]}}`,
	},
	{
		resource: "certificates", group: "pki.example.com", version: "v1", namespaced: true,
		manifest: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.pki.example.com
spec:
  group: pki.example.com
  scope: Namespaced
  names: {plural: certificates, singular: certificate, kind: Certificate, listKind: CertificateList, shortNames: [cert]}
  conversion: {strategy: None}
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              commonName: {type: string}
              dnsNames: {type: array, items: {type: string}}
              secretName: {type: string}
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Secret, type: string, jsonPath: .spec.secretName}
    - {name: Expires, type: date, jsonPath: .status.notAfter}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [secretName, dnsNames]
            properties:
              commonName: {type: string, maxLength: 64}
              dnsNames: {type: array, items: {type: string, maxLength: 253}, maxItems: 100}
              secretName: {type: string}
              duration: {type: string, default: 2160h}
              issuerRef:
                type: object
                properties:
                  name: {type: string}
                  kind: {type: string, default: Issuer}
            x-kubernetes-validations:
            - rule: "size(self.dnsNames) > 0"
              message: a certificate needs at least one DNS name
          status:
            type: object
            properties:
              notAfter: {type: string, format: date-time}
              revision: {type: integer}
`,
		object: `{"apiVersion":"pki.example.com/v1","kind":"Certificate","spec":{"secretName":"web-tls","dnsNames":["web.example.com"],"issuerRef":{"name":"ca"}}}`,
	},
	{
		resource: "backuppolicies", group: "ops.example.com", version: "v1beta1", namespaced: false,
		manifest: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backuppolicies.ops.example.com
spec:
  group: ops.example.com
  scope: Cluster
  names: {plural: backuppolicies, singular: backuppolicy, kind: BackupPolicy, listKind: BackupPolicyList}
  versions:
  - name: v1beta1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Schedule, type: string, jsonPath: .spec.schedule}
    - {name: Last, type: date, jsonPath: .status.lastBackup}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [schedule]
            properties:
              schedule: {type: string, pattern: '^(\S+ ){4}\S+$'}
              retention:
                type: object
                default: {}
                properties:
                  daily: {type: integer, default: 7}
                  weekly: {type: integer, default: 4}
                  monthly: {type: integer, default: 6}
              selector:
                type: object
                properties:
                  matchLabels: {type: object, additionalProperties: {type: string}}
              hooks:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              lastBackup: {type: string, format: date-time}
              phase: {type: string}
`,
		object: `{"apiVersion":"ops.example.com/v1beta1","kind":"BackupPolicy","spec":{"schedule":"0 3 * * *","selector":{"matchLabels":{"tier":"db"}}}}`,
	},
	{
		resource: "queues", group: "messaging.example.com", version: "v1", namespaced: true,
		manifest: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: queues.messaging.example.com
spec:
  group: messaging.example.com
  scope: Namespaced
  names: {plural: queues, singular: queue, kind: Queue, listKind: QueueList, shortNames: [q]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    selectableFields:
    - jsonPath: .spec.tier
    additionalPrinterColumns:
    - {name: Tier, type: string, jsonPath: .spec.tier}
    - {name: Partitions, type: integer, jsonPath: .spec.partitions}
    - {name: Depth, type: integer, jsonPath: .status.depth, priority: 1}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              tier: {type: string, enum: [standard, premium], default: standard}
              partitions: {type: integer, minimum: 1, maximum: 128, default: 4}
              retention: {type: string, default: 24h}
              deadLetter:
                type: object
                properties:
                  queue: {type: string}
                  maxDeliveries: {type: integer, minimum: 1, default: 5}
            x-kubernetes-validations:
            - rule: "self.partitions >= oldSelf.partitions"
              message: partitions cannot be removed
          status:
            type: object
            properties:
              depth: {type: integer}
              consumers: {type: integer}
`,
		object: `{"apiVersion":"messaging.example.com/v1","kind":"Queue","spec":{"tier":"premium","deadLetter":{"queue":"dlq"}}}`,
	},
}
