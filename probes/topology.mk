# probes/topology.mk: topology probes
TOPOLOGY_DAEMON_SOURCES =
TOPOLOGY_CLIENT_SOURCES =
