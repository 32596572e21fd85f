"""The API's .proto files and buf module, shipped as package data (oracle.proto): `canasta-oracle proto --out DIR`."""
