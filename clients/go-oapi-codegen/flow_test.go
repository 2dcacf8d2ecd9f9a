// The payout flow through oapi-codegen's Go client (ClientWithResponses), against the sandbox the
// check started. Only the generated client talks to the API: HTTP Basic through its securityprovider,
// bodies from its types, answers decoded by it into JSON<status> (Error<status> for an error); a
// oneOf is read by its discriminator. The webhook is verified with Standard Webhooks' Go library, and
// the sample webhook's event the sandbox answers with is read as its webhook's type.
package flow

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	payments "example.com/payments/oapi-codegen"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/securityprovider"
	openapitypes "github.com/oapi-codegen/runtime/types"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

const receiver = "$success.mxn@sandbox.uma.money"

func connect(t *testing.T) *payments.ClientWithResponses {
	t.Helper()
	env := func(name string) string {
		value := os.Getenv(name)
		if value == "" {
			t.Fatalf("%s is not set: run the flow with `npm run check:clients`", name)
		}
		return value
	}
	clientID, clientSecret := env("PAYMENTS_CLIENT_ID"), env("PAYMENTS_CLIENT_SECRET")
	// oapi-codegen's own HTTP Basic provider: its Intercept is a request editor.
	basicAuth, err := securityprovider.NewSecurityProviderBasicAuth(clientID, clientSecret)
	if err != nil {
		t.Fatal(err)
	}
	client, err := payments.NewClientWithResponses(env("PAYMENTS_BASE_URL"), payments.WithRequestEditorFn(basicAuth.Intercept))
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// known is the enum value the flow expects; through the additive proxy (PAYMENTS_ADDITIVE_CHANGE
// set) every enum in an answer is that unknown value instead, which the client must hand over as is.
func known[E ~string](value E) E {
	if unknown := os.Getenv("PAYMENTS_ADDITIVE_CHANGE"); unknown != "" {
		return E(unknown)
	}
	return value
}

func ptr[T any](v T) *T {
	return &v
}

func key() *string {
	return ptr(rand.Text())
}

// check fails the test unless the call succeeded with the status it should have.
func check(t *testing.T, err error, response interface{ StatusCode() int }, body []byte, status int) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if response.StatusCode() != status {
		t.Fatalf("expected %d, got %d: %s", status, response.StatusCode(), body)
	}
}

func newCustomer(t *testing.T, api *payments.ClientWithResponses, fullName string) payments.IndividualCustomer {
	t.Helper()
	var body payments.CustomerCreateRequest
	err := body.FromIndividualCustomerCreateRequest(payments.IndividualCustomerCreateRequest{
		CustomerType: payments.IndividualCustomerCreateRequestCustomerTypeINDIVIDUAL,
		FullName:     ptr(fullName),
		BirthDate:    &openapitypes.Date{Time: time.Date(1990, 4, 21, 0, 0, 0, 0, time.UTC)},
		Currencies:   &[]payments.CurrencyCode{"USD"},
	})
	if err != nil {
		t.Fatal(err)
	}
	created, err := api.CreateCustomerWithResponse(context.Background(), &payments.CreateCustomerParams{IdempotencyKey: key()}, body)
	check(t, err, created, created.Body, 201)
	// Customer is a oneOf: its discriminator, customerType, says which variant it is.
	variant, err := created.JSON201.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	customer, ok := variant.(payments.IndividualCustomer)
	if !ok {
		t.Fatalf("expected an individual customer, got %T", variant)
	}
	return customer
}

func balance(t *testing.T, api *payments.ClientWithResponses, accountID string) int64 {
	t.Helper()
	account, err := api.GetInternalAccountWithResponse(context.Background(), accountID)
	check(t, err, account, account.Body, 200)
	return account.JSON200.Balance.Amount
}

func TestPayout(t *testing.T) {
	api, ctx := connect(t), context.Background()
	customer := newCustomer(t, api, "Jane Doe")
	accounts, err := api.ListCustomerInternalAccountsWithResponse(ctx, &payments.ListCustomerInternalAccountsParams{
		CustomerId: &customer.Id, Currency: ptr(payments.CurrencyFilter("USD")), Type: ptr(payments.InternalAccountTypeINTERNALFIAT),
	})
	check(t, err, accounts, accounts.Body, 200)
	if len(accounts.JSON200.Data) != 1 {
		t.Fatalf("expected one USD account, got %d", len(accounts.JSON200.Data))
	}
	usd := accounts.JSON200.Data[0]
	if usd.Balance.Amount != 0 {
		t.Fatalf("a new account holds %d", usd.Balance.Amount)
	}

	// A USD bank account: accountInfo is a oneOf, sent and read back as its USD_ACCOUNT variant.
	var beneficiary payments.Beneficiary
	if err := beneficiary.FromIndividualBeneficiary(payments.IndividualBeneficiary{BeneficiaryType: payments.IndividualBeneficiaryBeneficiaryTypeINDIVIDUAL, FullName: "Jane Doe"}); err != nil {
		t.Fatal(err)
	}
	var info payments.ExternalAccountInfo
	err = info.FromUsdAccountInfo(payments.UsdAccountInfo{
		AccountType: payments.UsdAccountInfoAccountTypeUSDACCOUNT, AccountNumber: "000123456789", RoutingNumber: "021000021",
		BankAccountType: ptr(payments.UsdAccountInfoBankAccountTypeCHECKING), Beneficiary: beneficiary,
	})
	if err != nil {
		t.Fatal(err)
	}
	bank, err := api.CreateCustomerExternalAccountWithResponse(ctx, &payments.CreateCustomerExternalAccountParams{IdempotencyKey: key()},
		payments.ExternalAccountCreateRequest{CustomerId: &customer.Id, Currency: "USD", AccountInfo: info})
	check(t, err, bank, bank.Body, 201)
	readBack, err := bank.JSON201.AccountInfo.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	if usdInfo, ok := readBack.(payments.UsdAccountInfo); !ok || usdInfo.RoutingNumber != "021000021" {
		t.Fatalf("expected the USD_ACCOUNT variant, got %#v", readBack)
	}

	// A transfer-in sent twice with one Idempotency-Key: the same transaction, credited once.
	transfer := payments.TransferInRequest{
		Source:      payments.ExternalAccountReference{AccountId: bank.JSON201.Id},
		Destination: payments.InternalAccountReference{AccountId: usd.Id},
		Amount:      50_000,
	}
	params := &payments.CreateTransferInParams{IdempotencyKey: key()}
	first, err := api.CreateTransferInWithResponse(ctx, params, transfer)
	check(t, err, first, first.Body, 201)
	again, err := api.CreateTransferInWithResponse(ctx, params, transfer)
	check(t, err, again, again.Body, 201)
	firstIncoming, err := first.JSON201.AsIncomingTransaction()
	if err != nil {
		t.Fatal(err)
	}
	againIncoming, err := again.JSON201.AsIncomingTransaction()
	if err != nil {
		t.Fatal(err)
	}
	if kind, _ := again.JSON201.Discriminator(); kind != "INCOMING" || againIncoming.Id != firstIncoming.Id {
		t.Fatalf("expected the same incoming transaction twice, got %s %s and %s", kind, firstIncoming.Id, againIncoming.Id)
	}
	if replayed := again.HTTPResponse.Header.Get("Idempotent-Replayed"); replayed != "true" {
		t.Fatalf("Idempotent-Replayed: %q", replayed)
	}
	if got := balance(t, api, usd.Id); got != 50_000 {
		t.Fatalf("balance %d after one transfer-in of 50000", got)
	}

	// An UMA payment: receiver lookup, a quote with the sender's data, its execution, its transaction.
	lookup, err := api.LookupUmaReceiverWithResponse(ctx, receiver, &payments.LookupUmaReceiverParams{CustomerId: &customer.Id})
	check(t, err, lookup, lookup.Body, 200)
	var source payments.QuoteSource
	if err := source.FromAccountQuoteSource(payments.AccountQuoteSource{SourceType: payments.AccountQuoteSourceSourceTypeACCOUNT, AccountId: usd.Id}); err != nil {
		t.Fatal(err)
	}
	var destination payments.QuoteDestination
	if err := destination.FromUmaAddressQuoteDestination(payments.UmaAddressQuoteDestination{DestinationType: payments.UmaAddressQuoteDestinationDestinationTypeUMAADDRESS, UmaAddress: receiver}); err != nil {
		t.Fatal(err)
	}
	quote, err := api.CreateQuoteWithResponse(ctx, &payments.CreateQuoteParams{IdempotencyKey: key()}, payments.QuoteCreateRequest{
		Source: source, Destination: destination,
		LockedCurrencySide: payments.QuoteLockSideSENDING, LockedCurrencyAmount: 10_000,
		LookupId:           &lookup.JSON200.LookupId,
		SenderCustomerInfo: &payments.PayerDataValues{"FULL_NAME": "Jane Doe", "BIRTH_DATE": "1990-04-21", "NATIONALITY": "US"},
	})
	check(t, err, quote, quote.Body, 201)
	// The quote's destination is a oneOf too, read back as its UMA_ADDRESS variant.
	quoted, err := quote.JSON201.Destination.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	if uma, ok := quoted.(payments.UmaAddressQuoteDestination); !ok || uma.UmaAddress != receiver {
		t.Fatalf("expected the UMA_ADDRESS destination, got %#v", quoted)
	}
	if code := quote.JSON201.ReceivingCurrency.Code; code != "MXN" {
		t.Fatalf("receiving currency %s", code)
	}
	executed, err := api.ExecuteQuoteWithResponse(ctx, quote.JSON201.Id, &payments.ExecuteQuoteParams{IdempotencyKey: key()})
	check(t, err, executed, executed.Body, 200)
	if executed.JSON200.TransactionId == nil {
		t.Fatal("an executed quote without transactionId")
	}
	transaction, err := api.GetTransactionWithResponse(ctx, *executed.JSON200.TransactionId)
	check(t, err, transaction, transaction.Body, 200)
	variant, err := transaction.JSON200.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	outgoing, ok := variant.(payments.OutgoingTransaction)
	if !ok || outgoing.QuoteId == nil || *outgoing.QuoteId != quote.JSON201.Id || outgoing.SentAmount.Amount != quote.JSON201.TotalSendingAmount {
		t.Fatalf("expected the quote's outgoing transaction, got %#v", variant)
	}
	if got := balance(t, api, usd.Id); got != 50_000-quote.JSON201.TotalSendingAmount {
		t.Fatalf("balance %d after paying %d", got, quote.JSON201.TotalSendingAmount)
	}
}

func TestListCustomersPageByPage(t *testing.T) {
	api, ctx := connect(t), context.Background()
	created := map[string]bool{}
	for i := range 5 {
		created[newCustomer(t, api, fmt.Sprintf("Page Walker %d", i)).Id] = true
	}
	seen := map[string]bool{}
	count, pages := 0, 0
	var page *payments.CustomerListResponse
	for cursor := (*payments.Cursor)(nil); ; {
		listed, err := api.ListCustomersWithResponse(ctx, &payments.ListCustomersParams{Limit: ptr(payments.Limit(2)), Cursor: cursor})
		check(t, err, listed, listed.Body, 200)
		page = listed.JSON200
		pages++
		for _, customer := range page.Data {
			variant, err := customer.ValueByDiscriminator()
			if err != nil {
				t.Fatal(err)
			}
			switch c := variant.(type) {
			case payments.IndividualCustomer:
				seen[c.Id] = true
			case payments.BusinessCustomer:
				seen[c.Id] = true
			}
			count++
		}
		if !page.HasMore {
			break
		}
		if page.NextCursor == nil {
			t.Fatal("hasMore without nextCursor")
		}
		cursor = page.NextCursor
	}
	if count != len(seen) || count != page.TotalCount {
		t.Fatalf("%d customers listed, %d distinct, totalCount %d", count, len(seen), page.TotalCount)
	}
	for id := range created {
		if !seen[id] {
			t.Fatalf("customer %s was not listed", id)
		}
	}
	if pages != (count+1)/2 {
		t.Fatalf("%d pages of 2 for %d customers", pages, count)
	}
}

func TestBadRequestIsDecoded(t *testing.T) {
	api, ctx := connect(t), context.Background()
	customer := newCustomer(t, api, "Jane Doe")
	// Valid as far as the client can tell; the server refuses to change a customer's type.
	var body payments.CustomerUpdateRequest
	if err := body.FromBusinessCustomerUpdateRequest(payments.BusinessCustomerUpdateRequest{CustomerType: payments.BusinessCustomerUpdateRequestCustomerTypeBUSINESS}); err != nil {
		t.Fatal(err)
	}
	refused, err := api.UpdateCustomerWithResponse(ctx, customer.Id, body)
	check(t, err, refused, refused.Body, 400)
	error400 := refused.JSON400
	if error400 == nil || error400.Status != 400 || error400.Code != known(payments.Error400CodeINVALIDINPUT) {
		t.Fatalf("expected Error400 INVALID_INPUT, got %#v", error400)
	}
	if error400.Details == nil || error400.Details.Errors == nil || len(*error400.Details.Errors) != 1 || (*error400.Details.Errors)[0].Field != "/customerType" {
		t.Fatalf("details: %#v", error400.Details)
	}
}

func TestNotFoundIsDecoded(t *testing.T) {
	api, ctx := connect(t), context.Background()
	missing, err := api.GetCustomerWithResponse(ctx, "Customer:019542f5-b3e7-1d02-0000-00000000dead")
	check(t, err, missing, missing.Body, 404)
	if missing.JSON404 == nil || missing.JSON404.Status != 404 || missing.JSON404.Code != known(payments.Error404CodeCUSTOMERNOTFOUND) {
		t.Fatalf("expected Error404 CUSTOMER_NOT_FOUND, got %#v", missing.JSON404)
	}
}

func TestWebhookIsVerified(t *testing.T) {
	api, ctx := connect(t), context.Background()
	type delivery struct {
		header http.Header
		body   []byte
	}
	deliveries := make(chan delivery, 8)
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		deliveries <- delivery{r.Header.Clone(), body}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer endpoint.Close()

	// Setting the endpoint returns the signing secret (once) and sends a TEST event; so does the sandbox.
	config, err := api.UpdatePlatformConfigWithResponse(ctx, payments.PlatformConfigUpdateRequest{WebhookEndpoint: ptr(endpoint.URL + "/webhooks")})
	check(t, err, config, config.Body, 200)
	if config.JSON200.WebhookSigningSecret == nil {
		t.Fatal("no webhookSigningSecret")
	}
	result, err := api.SendSandboxTestWebhookWithResponse(ctx)
	check(t, err, result, result.Body, 200)
	if result.JSON200.ResponseStatus != 204 {
		t.Fatalf("the endpoint answered %d", result.JSON200.ResponseStatus)
	}
	webhook, err := standardwebhooks.NewWebhook(*config.JSON200.WebhookSigningSecret)
	if err != nil {
		t.Fatal(err)
	}
	var last delivery
	for range 2 {
		select {
		case last = <-deliveries:
		case <-time.After(15 * time.Second):
			t.Fatal("no webhook arrived within 15 s")
		}
		if err := webhook.Verify(last.body, last.header); err != nil {
			t.Fatalf("a delivery did not verify: %v", err)
		}
		var event payments.TestWebhookEvent
		if err := json.Unmarshal(last.body, &event); err != nil || event.Type != payments.TestWebhookEventTypeTEST || event.Id != last.header.Get("Webhook-Id") {
			t.Fatalf("event %+v (%v), webhook-id %s", event, err, last.header.Get("Webhook-Id"))
		}
	}
	// A body changed on the way does not verify.
	var event map[string]any
	if err := json.Unmarshal(last.body, &event); err != nil {
		t.Fatal(err)
	}
	event["type"] = "INCOMING_PAYMENT_COMPLETED"
	tampered, _ := json.Marshal(event)
	if webhook.Verify(tampered, last.header) == nil {
		t.Fatal("a tampered body verified")
	}

	// A sample of any type: the answer holds the event it sent, read as its webhook's type.
	trigger, err := api.SimulateWebhookEventWithResponse(ctx, payments.SandboxWebhookTriggerRequest{Type: payments.WebhookEventTypeOUTGOINGPAYMENTFAILED})
	check(t, err, trigger, trigger.Body, 200)
	sent, err := trigger.JSON200.Event.ValueByDiscriminator()
	if err != nil {
		t.Fatal(err)
	}
	failed, ok := sent.(payments.OutgoingPaymentWebhookEvent)
	if !ok || failed.Data.Status != known(payments.TransactionStatusFAILED) || failed.Id != trigger.JSON200.EventId {
		t.Fatalf("the trigger's event: a %T, status %s, id %s (eventId %s)", sent, failed.Data.Status, failed.Id, trigger.JSON200.EventId)
	}
	select {
	case last = <-deliveries:
	case <-time.After(15 * time.Second):
		t.Fatal("the triggered webhook did not arrive within 15 s")
	}
	if err := webhook.Verify(last.body, last.header); err != nil {
		t.Fatalf("the triggered webhook did not verify: %v", err)
	}
	var received payments.OutgoingPaymentWebhookEvent
	if err := json.Unmarshal(last.body, &received); err != nil || received.Id != failed.Id || received.Data.Id != failed.Data.Id || last.header.Get("Webhook-Id") != failed.Id {
		t.Fatalf("received event %s of %s (%v, webhook-id %s), the trigger's event %s of %s", received.Id, received.Data.Id, err, last.header.Get("Webhook-Id"), failed.Id, failed.Data.Id)
	}
}
