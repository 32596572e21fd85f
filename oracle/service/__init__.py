"""The gRPC service: the API's calls as plain functions, conversion between protobuf messages and domain
values, the servicer and server setup. Converts and delegates; decides no rule.

May import every layer below it (games, rules, ruleset, model, verify for linting rule sets).
"""
