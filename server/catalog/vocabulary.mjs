// Word lists of the generated catalog: real project and chart names, categories and
// description phrases, so the demo reads like a Kubeapps catalog.

export const CATEGORIES = [
  "Analytics", "ApplicationServer", "CMS", "CRM", "Certificates", "Database", "DeveloperTools",
  "E-Commerce", "Forum", "Infrastructure", "LogManagement", "MachineLearning", "Media",
  "Messaging", "Monitoring", "Networking", "Security", "Storage", "Wiki", "WorkFlow",
];

export const BITNAMI = [
  "airflow", "apache", "apisix", "appsmith", "argo-cd", "argo-workflows", "aspnet-core", "cassandra",
  "cert-manager", "clickhouse", "common", "concourse", "consul", "contour", "deepspeed", "discourse",
  "dokuwiki", "drupal", "ejbca", "elasticsearch", "etcd", "external-dns", "flink", "fluent-bit",
  "fluentd", "flux", "gitea", "ghost", "grafana", "grafana-loki", "grafana-mimir", "grafana-operator",
  "grafana-tempo", "haproxy", "harbor", "influxdb", "jasperreports", "jenkins", "joomla", "jupyterhub",
  "kafka", "keycloak", "kiam", "kibana", "kong", "kube-prometheus", "kube-state-metrics", "kubeapps",
  "kubernetes-event-exporter", "logstash", "magento", "mariadb", "mariadb-galera", "mastodon", "matomo",
  "mediawiki", "memcached", "metallb", "metrics-server", "milvus", "minio", "mlflow", "mongodb",
  "mongodb-sharded", "moodle", "mysql", "nats", "neo4j", "nginx", "nginx-ingress-controller",
  "node-exporter", "oauth2-proxy", "odoo", "opencart", "opensearch", "owncloud", "parse", "phpbb",
  "phpmyadmin", "pinniped", "postgresql", "postgresql-ha", "prestashop", "pytorch", "rabbitmq",
  "rabbitmq-cluster-operator", "redis", "redis-cluster", "redmine", "schema-registry",
  "sealed-secrets", "solr", "sonarqube", "spark", "spring-cloud-dataflow", "suitecrm", "thanos",
  "tomcat", "valkey", "vault", "wavefront", "wildfly", "wordpress", "zookeeper",
];

export const FIXED_REPOS = {
  "prometheus-community": [
    "alertmanager", "kube-prometheus-stack", "kube-state-metrics", "prometheus", "prometheus-adapter",
    "prometheus-blackbox-exporter", "prometheus-cloudwatch-exporter", "prometheus-consul-exporter",
    "prometheus-elasticsearch-exporter", "prometheus-json-exporter", "prometheus-kafka-exporter",
    "prometheus-mongodb-exporter", "prometheus-mysql-exporter", "prometheus-nats-exporter",
    "prometheus-node-exporter", "prometheus-operator-crds", "prometheus-postgres-exporter",
    "prometheus-pushgateway", "prometheus-rabbitmq-exporter", "prometheus-redis-exporter",
    "prometheus-smartctl-exporter", "prometheus-snmp-exporter", "prometheus-statsd-exporter",
  ],
  grafana: [
    "agent-operator", "enterprise-metrics", "fluent-bit", "grafana", "grafana-agent", "k6-operator",
    "loki", "loki-canary", "loki-stack", "mimir-distributed", "oncall", "promtail", "pyroscope",
    "rollout-operator", "synthetic-monitoring-agent", "tempo", "tempo-distributed",
  ],
  jetstack: [
    "cert-manager", "cert-manager-approver-policy", "cert-manager-csi-driver",
    "cert-manager-google-cas-issuer", "cert-manager-istio-csr", "trust-manager", "version-checker",
  ],
  argo: ["argo-cd", "argo-events", "argo-rollouts", "argo-workflows", "argocd-apps", "argocd-image-updater"],
  hashicorp: ["boundary", "consul", "terraform-cloud-operator", "vault", "vault-secrets-operator", "waypoint"],
  "ingress-nginx": ["ingress-nginx"],
  elastic: ["apm-server", "eck-operator", "elasticsearch", "filebeat", "kibana", "logstash", "metricbeat"],
};

export const HOME = [
  "adguard-home", "audiobookshelf", "bazarr", "booksonic", "calibre-web", "changedetection-io",
  "code-server", "deconz", "double-take", "esphome", "flaresolverr", "frigate", "gotify",
  "heimdall", "home-assistant", "homebridge", "jackett", "jellyfin", "kavita", "komga", "lidarr",
  "mealie", "mosquitto", "navidrome", "node-red", "nzbget", "ombi", "overseerr", "paperless",
  "photoprism", "pihole", "plex", "prowlarr", "qbittorrent", "radarr", "readarr", "sabnzbd",
  "sonarr", "syncthing", "tautulli", "traccar", "unifi", "uptime-kuma", "vaultwarden",
  "wikijs", "zigbee2mqtt", "zwavejs2mqtt",
];

export const BASES = [
  "atlantis", "backstage", "blackbox", "buildkit", "camunda", "cilium", "clusterpedia", "coredns",
  "cortex", "crossplane", "dapr", "descheduler", "dex", "dragonfly", "emissary", "envoy", "falco",
  "fluxcd", "gatekeeper", "gitlab-runner", "goldilocks", "harness", "headlamp", "istio", "jaeger",
  "karpenter", "keda", "kepler", "kiali", "knative", "kube-vip", "kubecost", "kubevirt", "kyverno",
  "linkerd", "litmus", "longhorn", "meilisearch", "nexus", "nifi", "opa", "opencost",
  "opentelemetry", "polaris", "portainer", "pulsar", "questdb", "rancher", "reloader", "rook-ceph",
  "scylla", "seaweedfs", "sentry", "skooner", "spegel", "spiffe", "stakater", "strimzi", "superset",
  "teleport", "temporal", "tekton", "timescaledb", "traefik", "trivy", "typesense", "velero",
  "victoria-metrics", "vitess", "weave", "yugabyte", "zalando-postgres",
];

export const SUFFIXES = [
  "", "-operator", "-exporter", "-controller", "-dashboard", "-agent", "-proxy", "-gateway",
  "-webhook", "-crds", "-ui", "-server", "-ha", "-cluster", "-backup",
];

export const FLUX_ONLY = [
  "flagger", "flux2", "flux2-multi-tenancy", "flux2-notification", "flux2-sync", "podinfo",
  "tf-controller", "weave-gitops", "source-watcher", "image-automation",
];

/** Names that exercise Unicode order and case folding (each says why in a comment). */
export const UNICODE = [
  "café-menu", // precomposed é (U+00E9): sorts after every ASCII name
  "naïve-bayes",
  "straße-router", // ß lowercases to itself
  "ёлка-scheduler", // Cyrillic
  "日本語-wiki", // CJK
  "ΣΟΦΙΑ-search", // Greek capitals: the final-sigma rule applies when lowercased
  "İstanbul-maps", // U+0130 lowercases to two code points (i + U+0307)
  "ｆｕｌｌｗｉｄｔｈ-app", // U+FF46: above U+E000, so UTF-16 order != UTF-8 order against astral names
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢-chart", // astral (U+1D518): surrogate pairs in UTF-16
  "rocket-🚀-launcher", // astral emoji in the middle
  "Ωmega-proxy", // capital omega
  "ǅemal-tools", // titlecase digraph U+01C5
  "Zeta-Board", // ASCII capital: name order and displayName order disagree
];

export const DOMAINS = [
  "community.tanzu.vmware.com", "tanzu.vmware.com", "carvel.dev", "packages.acme.io", "apps.example.org",
];

export const PROVIDERS = ["VMware", "Carvel", "ACME Corp", "Example Org", "Community"];

export const PHRASES = {
  Analytics: ["is a distributed stream and batch processing engine.", "turns event data into dashboards and reports."],
  ApplicationServer: ["is a lightweight, high-performance application server.", "runs Java and .NET web applications."],
  CMS: ["is a content management system for blogs and websites.", "is a headless CMS with a REST and GraphQL API."],
  CRM: ["is an open source customer relationship management suite."],
  Certificates: ["issues and renews TLS certificates from ACME, Vault and private CAs."],
  Database: ["is an open source relational database.", "is an in-memory key-value store used as a cache and message broker.", "is a distributed, horizontally scalable document database."],
  DeveloperTools: ["is a self-hosted Git service with CI pipelines.", "builds, tests and ships code from a single workflow."],
  "E-Commerce": ["is an online store platform with a plugin marketplace."],
  Forum: ["is a community discussion platform."],
  Infrastructure: ["manages cluster resources declaratively.", "autoscales workloads from external event sources.", "provides a control plane for cloud native infrastructure."],
  LogManagement: ["collects, parses and forwards logs.", "indexes and searches log data at scale."],
  MachineLearning: ["trains and serves machine learning models.", "tracks experiments and model versions."],
  Media: ["streams your media library to any device.", "organizes and downloads TV shows and movies."],
  Messaging: ["is a distributed event streaming platform.", "is a lightweight message broker with MQTT and AMQP support."],
  Monitoring: ["exports metrics in the Prometheus format.", "collects and visualizes metrics, logs and traces.", "alerts on service level objectives."],
  Networking: ["is an ingress controller and reverse proxy.", "provides service mesh traffic management.", "is a high-performance DNS server."],
  Security: ["scans images and clusters for vulnerabilities.", "enforces policies on Kubernetes resources.", "manages secrets and encryption keys."],
  Storage: ["is S3-compatible object storage.", "provides replicated block storage for Kubernetes.", "backs up and restores cluster resources and volumes."],
  Wiki: ["is a wiki for documentation and knowledge sharing."],
  WorkFlow: ["orchestrates workflows as directed acyclic graphs.", "runs durable, fault-tolerant workflows."],
};

// Substrings of a name that decide its category before any random choice.
export const CATEGORY_HINTS = [
  ["exporter", "Monitoring"], ["prometheus", "Monitoring"], ["grafana", "Monitoring"], ["metrics", "Monitoring"],
  ["loki", "LogManagement"], ["log", "LogManagement"], ["fluent", "LogManagement"], ["beat", "LogManagement"],
  ["sql", "Database"], ["redis", "Database"], ["mongo", "Database"], ["db", "Database"], ["cassandra", "Database"],
  ["cert", "Certificates"], ["vault", "Security"], ["secret", "Security"], ["trivy", "Security"], ["falco", "Security"],
  ["kafka", "Messaging"], ["rabbit", "Messaging"], ["nats", "Messaging"], ["mosquitto", "Messaging"], ["pulsar", "Messaging"],
  ["ingress", "Networking"], ["proxy", "Networking"], ["gateway", "Networking"], ["dns", "Networking"], ["envoy", "Networking"],
  ["minio", "Storage"], ["velero", "Storage"], ["backup", "Storage"], ["ceph", "Storage"], ["longhorn", "Storage"],
  ["wordpress", "CMS"], ["drupal", "CMS"], ["ghost", "CMS"], ["joomla", "CMS"], ["wiki", "Wiki"],
  ["airflow", "WorkFlow"], ["argo-workflows", "WorkFlow"], ["temporal", "WorkFlow"],
  ["plex", "Media"], ["jellyfin", "Media"], ["sonarr", "Media"], ["radarr", "Media"],
  ["torch", "MachineLearning"], ["mlflow", "MachineLearning"], ["jupyter", "MachineLearning"],
];
