# tests/integration/integration.mk
