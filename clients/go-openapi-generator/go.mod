module example.com/payments/flow/openapi-generator

go 1.24

require example.com/payments/openapi-generator-go v0.0.0

require github.com/standard-webhooks/standard-webhooks/libraries v0.0.1

// The client scripts/check-clients.ts generates (openapi-generator, Go).
replace example.com/payments/openapi-generator-go => ../../.tmp/clients/go-openapi-generator
