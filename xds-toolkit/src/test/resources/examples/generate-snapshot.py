# Writes a snapshot of CLUSTERS clusters x ENDPOINTS endpoints (4 localities, the last at priority 1;
# weights 1-7, every 13th endpoint UNHEALTHY) as two DiscoveryResponses in one JSON array.
# python3 generate-snapshot.py CLUSTERS ENDPOINTS [SHIFT] > snapshot.json   (SHIFT varies weights and health, for diff)
import json, sys
clusters, endpoints = int(sys.argv[1]), int(sys.argv[2])
shift = int(sys.argv[3]) if len(sys.argv) > 3 else 0
cds = {"type_url": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "version_info": "1", "resources": []}
eds = {"type_url": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment", "version_info": "1", "resources": []}
for c in range(clusters):
    name = f"svc-{c}"
    cds["resources"].append({"@type": cds["type_url"], "name": name, "type": "EDS", "eds_cluster_config": {"eds_config": {"ads": {}}}})
    locs = []
    for l in range(4):
        eps = []
        for e in range(endpoints // 4):
            i = l * (endpoints // 4) + e
            eps.append({"endpoint": {"address": {"socket_address": {"address": f"10.{c // 250}.{(c % 250)}.{i}", "port_value": 8080}}},
                        "load_balancing_weight": 1 + (i + shift) % 7, "health_status": "HEALTHY" if (i + shift) % 13 else "UNHEALTHY"})
        locs.append({"locality": {"region": "r", "zone": f"z{l}"}, "load_balancing_weight": 1 + (l + shift) % 3, "priority": 0 if l < 3 else 1, "lb_endpoints": eps})
    eds["resources"].append({"@type": eds["type_url"], "cluster_name": name, "endpoints": locs})
json.dump([cds, eds], sys.stdout)
