// The payout flow through openapi-generator's Go client, against the sandbox the check started.
// Only the generated client talks to the API: HTTP Basic from its context, bodies from its models,
// answers decoded by it; an error status is a *GenericOpenAPIError whose Model() is the
// Error<status> of the status. The webhook is verified with Standard Webhooks' Go library.
package flow

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	payments "example.com/payments/openapi-generator-go"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

const receiver = "$success.mxn@sandbox.uma.money"

// connect returns the client and the context that carries its credentials.
// known is the enum value the flow expects; through the additive proxy (PAYMENTS_ADDITIVE_CHANGE
// set) every enum in an answer is that unknown value instead. (A named enum reads it as its
// UNKNOWN_DEFAULT_OPEN_API constant; an inline one, a string here, as it came.)
func known(value string) string {
	if unknown := os.Getenv("PAYMENTS_ADDITIVE_CHANGE"); unknown != "" {
		return unknown
	}
	return value
}

func connect(t *testing.T) (*payments.APIClient, context.Context) {
	t.Helper()
	env := func(name string) string {
		value := os.Getenv(name)
		if value == "" {
			t.Fatalf("%s is not set: run the flow with `npm run check:clients`", name)
		}
		return value
	}
	config := payments.NewConfiguration()
	config.Servers = payments.ServerConfigurations{{URL: env("PAYMENTS_BASE_URL")}}
	ctx := context.WithValue(context.Background(), payments.ContextBasicAuth, payments.BasicAuth{UserName: env("PAYMENTS_CLIENT_ID"), Password: env("PAYMENTS_CLIENT_SECRET")})
	return payments.NewAPIClient(config), ctx
}

func key() string {
	return rand.Text()
}

// check fails the test on a call's error, with the body of an error answer.
func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		var apiErr *payments.GenericOpenAPIError
		if errors.As(err, &apiErr) {
			t.Fatalf("%v: %s", err, apiErr.Body())
		}
		t.Fatal(err)
	}
}

func newCustomer(t *testing.T, api *payments.APIClient, ctx context.Context, fullName string) *payments.IndividualCustomer {
	t.Helper()
	body := payments.NewIndividualCustomerCreateRequest("INDIVIDUAL")
	body.SetFullName(fullName)
	body.SetBirthDate("1990-04-21")
	body.SetCurrencies([]string{"USD"})
	created, _, err := api.CustomersAPI.CreateCustomer(ctx).CustomerCreateRequest(payments.IndividualCustomerCreateRequestAsCustomerCreateRequest(body)).IdempotencyKey(key()).Execute()
	check(t, err)
	// Customer is a oneOf: the client fills in the variant that matches.
	if created.IndividualCustomer == nil {
		t.Fatalf("expected an individual customer, got %+v", created.GetActualInstance())
	}
	return created.IndividualCustomer
}

func balance(t *testing.T, api *payments.APIClient, ctx context.Context, accountID string) int64 {
	t.Helper()
	account, _, err := api.InternalAccountsAPI.GetInternalAccount(ctx, accountID).Execute()
	check(t, err)
	return account.Balance.GetAmount()
}

func TestPayout(t *testing.T) {
	api, ctx := connect(t)
	customer := newCustomer(t, api, ctx, "Jane Doe")
	accounts, _, err := api.InternalAccountsAPI.ListCustomerInternalAccounts(ctx).CustomerId(customer.GetId()).Currency("USD").Type_(payments.INTERNALACCOUNTTYPE_INTERNAL_FIAT).Execute()
	check(t, err)
	if len(accounts.Data) != 1 {
		t.Fatalf("expected one USD account, got %d", len(accounts.Data))
	}
	usd := accounts.Data[0]
	if usd.Balance.GetAmount() != 0 {
		t.Fatalf("a new account holds %d", usd.Balance.GetAmount())
	}

	// A USD bank account: accountInfo is a oneOf, sent and read back as its USD_ACCOUNT variant.
	info := payments.NewUsdAccountInfo("USD_ACCOUNT", "000123456789", "021000021", payments.IndividualBeneficiaryAsBeneficiary(payments.NewIndividualBeneficiary("INDIVIDUAL", "Jane Doe")))
	info.SetBankAccountType("CHECKING")
	request := payments.NewExternalAccountCreateRequest("USD", payments.UsdAccountInfoAsExternalAccountInfo(info))
	request.SetCustomerId(customer.GetId())
	bank, _, err := api.ExternalAccountsAPI.CreateCustomerExternalAccount(ctx).ExternalAccountCreateRequest(*request).IdempotencyKey(key()).Execute()
	check(t, err)
	if bank.AccountInfo.UsdAccountInfo == nil || bank.AccountInfo.UsdAccountInfo.GetRoutingNumber() != "021000021" {
		t.Fatalf("expected the USD_ACCOUNT variant, got %+v", bank.AccountInfo.GetActualInstance())
	}

	// A transfer-in sent twice with one Idempotency-Key: the same transaction, credited once.
	idempotencyKey := key()
	transfer := payments.NewTransferInRequest(*payments.NewExternalAccountReference(bank.GetId()), *payments.NewInternalAccountReference(usd.GetId()), 50_000)
	first, firstResponse, err := api.SameCurrencyTransfersAPI.CreateTransferIn(ctx).TransferInRequest(*transfer).IdempotencyKey(idempotencyKey).Execute()
	check(t, err)
	again, againResponse, err := api.SameCurrencyTransfersAPI.CreateTransferIn(ctx).TransferInRequest(*transfer).IdempotencyKey(idempotencyKey).Execute()
	check(t, err)
	if firstResponse.StatusCode != 201 || againResponse.StatusCode != 201 {
		t.Fatalf("statuses %d and %d", firstResponse.StatusCode, againResponse.StatusCode)
	}
	if first.IncomingTransaction == nil || again.IncomingTransaction == nil || again.IncomingTransaction.GetId() != first.IncomingTransaction.GetId() {
		t.Fatalf("expected the same incoming transaction twice, got %+v and %+v", first.GetActualInstance(), again.GetActualInstance())
	}
	if replayed := againResponse.Header.Get("Idempotent-Replayed"); replayed != "true" {
		t.Fatalf("Idempotent-Replayed: %q", replayed)
	}
	if got := balance(t, api, ctx, usd.GetId()); got != 50_000 {
		t.Fatalf("balance %d after one transfer-in of 50000", got)
	}

	// An UMA payment: receiver lookup, a quote with the sender's data, its execution, its transaction.
	lookup, _, err := api.ReceiverLookupAPI.LookupUmaReceiver(ctx, receiver).CustomerId(customer.GetId()).Execute()
	check(t, err)
	quoteRequest := payments.NewQuoteCreateRequest(
		payments.AccountQuoteSourceAsQuoteSource(payments.NewAccountQuoteSource("ACCOUNT", usd.GetId())),
		payments.UmaAddressQuoteDestinationAsQuoteDestination(payments.NewUmaAddressQuoteDestination("UMA_ADDRESS", receiver)),
		payments.QUOTELOCKSIDE_SENDING,
		10_000,
	)
	quoteRequest.SetLookupId(lookup.GetLookupId())
	quoteRequest.SetSenderCustomerInfo(map[string]string{"FULL_NAME": "Jane Doe", "BIRTH_DATE": "1990-04-21", "NATIONALITY": "US"})
	quote, _, err := api.CrossCurrencyTransfersAPI.CreateQuote(ctx).QuoteCreateRequest(*quoteRequest).IdempotencyKey(key()).Execute()
	check(t, err)
	// The quote's destination is a oneOf too, read back as its UMA_ADDRESS variant.
	if quote.Destination.UmaAddressQuoteDestination == nil || quote.Destination.UmaAddressQuoteDestination.GetUmaAddress() != receiver {
		t.Fatalf("expected the UMA_ADDRESS destination, got %+v", quote.Destination.GetActualInstance())
	}
	if code := quote.ReceivingCurrency.GetCode(); code != "MXN" {
		t.Fatalf("receiving currency %s", code)
	}
	executed, _, err := api.CrossCurrencyTransfersAPI.ExecuteQuote(ctx, quote.GetId()).IdempotencyKey(key()).Execute()
	check(t, err)
	transaction, _, err := api.TransactionsAPI.GetTransaction(ctx, executed.GetTransactionId()).Execute()
	check(t, err)
	outgoing := transaction.OutgoingTransaction
	if outgoing == nil || outgoing.GetQuoteId() != quote.GetId() || outgoing.SentAmount.GetAmount() != quote.GetTotalSendingAmount() {
		t.Fatalf("expected the quote's outgoing transaction, got %+v", transaction.GetActualInstance())
	}
	if got := balance(t, api, ctx, usd.GetId()); got != 50_000-quote.GetTotalSendingAmount() {
		t.Fatalf("balance %d after paying %d", got, quote.GetTotalSendingAmount())
	}
}

func TestListCustomersPageByPage(t *testing.T) {
	api, ctx := connect(t)
	created := map[string]bool{}
	for i := range 5 {
		created[newCustomer(t, api, ctx, fmt.Sprintf("Page Walker %d", i)).GetId()] = true
	}
	seen := map[string]bool{}
	count, pages := 0, 0
	var page *payments.CustomerListResponse
	for cursor := ""; ; {
		request := api.CustomersAPI.ListCustomers(ctx).Limit(2)
		if cursor != "" {
			request = request.Cursor(cursor)
		}
		var err error
		page, _, err = request.Execute()
		check(t, err)
		pages++
		for _, customer := range page.Data {
			switch variant := customer.GetActualInstance().(type) {
			case *payments.IndividualCustomer:
				seen[variant.GetId()] = true
			case *payments.BusinessCustomer:
				seen[variant.GetId()] = true
			default:
				t.Fatalf("a customer of no known variant: %+v", variant)
			}
			count++
		}
		if !page.GetHasMore() {
			break
		}
		cursor = page.GetNextCursor()
		if cursor == "" {
			t.Fatal("hasMore without nextCursor")
		}
	}
	if count != len(seen) || int32(count) != page.GetTotalCount() {
		t.Fatalf("%d customers listed, %d distinct, totalCount %d", count, len(seen), page.GetTotalCount())
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
	api, ctx := connect(t)
	customer := newCustomer(t, api, ctx, "Jane Doe")
	// Valid as far as the client can tell; the server refuses to change a customer's type.
	body := payments.BusinessCustomerUpdateRequestAsCustomerUpdateRequest(payments.NewBusinessCustomerUpdateRequest("BUSINESS"))
	_, response, err := api.CustomersAPI.UpdateCustomer(ctx, customer.GetId()).CustomerUpdateRequest(body).Execute()
	var apiErr *payments.GenericOpenAPIError
	if !errors.As(err, &apiErr) || response.StatusCode != 400 {
		t.Fatalf("expected a 400, got %v", err)
	}
	model, ok := apiErr.Model().(payments.Error400)
	if !ok {
		t.Fatalf("the error's model is %T", apiErr.Model())
	}
	if model.GetStatus() != 400 || model.GetCode() != known("INVALID_INPUT") {
		t.Fatalf("status %d, code %s", model.GetStatus(), model.GetCode())
	}
	details := model.GetDetails()
	fields := []string{}
	for _, e := range details.GetErrors() {
		fields = append(fields, e.GetField())
	}
	if len(fields) != 1 || fields[0] != "/customerType" {
		t.Fatalf("details.errors names %v", fields)
	}
}

func TestNotFoundIsDecoded(t *testing.T) {
	api, ctx := connect(t)
	_, response, err := api.CustomersAPI.GetCustomer(ctx, "Customer:019542f5-b3e7-1d02-0000-00000000dead").Execute()
	var apiErr *payments.GenericOpenAPIError
	if !errors.As(err, &apiErr) || response.StatusCode != 404 {
		t.Fatalf("expected a 404, got %v", err)
	}
	model, ok := apiErr.Model().(payments.Error404)
	if !ok {
		t.Fatalf("the error's model is %T", apiErr.Model())
	}
	if model.GetStatus() != 404 || model.GetCode() != known("CUSTOMER_NOT_FOUND") {
		t.Fatalf("status %d, code %s", model.GetStatus(), model.GetCode())
	}
}

func TestWebhookIsVerified(t *testing.T) {
	api, ctx := connect(t)
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
	update := payments.NewPlatformConfigUpdateRequest()
	update.SetWebhookEndpoint(endpoint.URL + "/webhooks")
	config, _, err := api.PlatformConfigurationAPI.UpdatePlatformConfig(ctx).PlatformConfigUpdateRequest(*update).Execute()
	check(t, err)
	if config.GetWebhookSigningSecret() == "" {
		t.Fatal("no webhookSigningSecret")
	}
	result, _, err := api.SandboxAPI.SendSandboxTestWebhook(ctx).Execute()
	check(t, err)
	if result.GetResponseStatus() != 204 {
		t.Fatalf("the endpoint answered %d", result.GetResponseStatus())
	}
	webhook, err := standardwebhooks.NewWebhook(config.GetWebhookSigningSecret())
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
		var event struct{ ID, Type string }
		if err := json.Unmarshal(last.body, &event); err != nil || event.Type != "TEST" || event.ID != last.header.Get("Webhook-Id") {
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
}
