# probes/topology.mk
