package com.example.payments.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.payments.ApiClient;
import com.example.payments.ApiException;
import com.example.payments.ApiResponse;
import com.example.payments.api.CrossCurrencyTransfersApi;
import com.example.payments.api.CustomersApi;
import com.example.payments.api.ExternalAccountsApi;
import com.example.payments.api.InternalAccountsApi;
import com.example.payments.api.ReceiverLookupApi;
import com.example.payments.api.SameCurrencyTransfersApi;
import com.example.payments.api.TransactionsApi;
import com.example.payments.model.AccountQuoteSource;
import com.example.payments.model.Beneficiary;
import com.example.payments.model.BusinessCustomerUpdateRequest;
import com.example.payments.model.Customer;
import com.example.payments.model.CustomerCreateRequest;
import com.example.payments.model.CustomerListResponse;
import com.example.payments.model.CustomerUpdateRequest;
import com.example.payments.model.Error400;
import com.example.payments.model.Error404;
import com.example.payments.model.ExternalAccount;
import com.example.payments.model.ExternalAccountCreateRequest;
import com.example.payments.model.ExternalAccountInfo;
import com.example.payments.model.ExternalAccountReference;
import com.example.payments.model.FieldError;
import com.example.payments.model.IncomingTransaction;
import com.example.payments.model.IndividualBeneficiary;
import com.example.payments.model.IndividualCustomer;
import com.example.payments.model.IndividualCustomerCreateRequest;
import com.example.payments.model.InternalAccount;
import com.example.payments.model.InternalAccountReference;
import com.example.payments.model.InternalAccountType;
import com.example.payments.model.OutgoingTransaction;
import com.example.payments.model.Quote;
import com.example.payments.model.QuoteCreateRequest;
import com.example.payments.model.QuoteDestination;
import com.example.payments.model.QuoteLockSide;
import com.example.payments.model.QuoteSource;
import com.example.payments.model.Transaction;
import com.example.payments.model.TransferInRequest;
import com.example.payments.model.UmaAddressQuoteDestination;
import com.example.payments.model.UmaReceiverLookup;
import com.example.payments.model.UsdAccountInfo;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The payout flow through openapi-generator's Java client (okhttp-gson), against the sandbox the
 * check started. Only the generated client talks to the API: HTTP Basic from its ApiClient, bodies
 * from its models, answers decoded by it; an error status is an ApiException whose body the
 * client's Error&lt;status&gt; model decodes.
 */
class PayoutFlowTest {
  private static final String RECEIVER = "$success.mxn@sandbox.uma.money";
  private static ApiClient api;

  @BeforeAll
  static void connect() {
    api = new ApiClient();
    api.setBasePath(env("PAYMENTS_BASE_URL"));
    api.setUsername(env("PAYMENTS_CLIENT_ID"));
    api.setPassword(env("PAYMENTS_CLIENT_SECRET"));
  }

  private static String env(String name) {
    String value = System.getenv(name);
    assertNotNull(value, name + " is not set: run the flow with `npm run check:clients`");
    return value;
  }

  private static String key() {
    return UUID.randomUUID().toString();
  }

  private static IndividualCustomer newCustomer(String fullName) throws ApiException {
    IndividualCustomerCreateRequest body =
        new IndividualCustomerCreateRequest()
            .customerType(IndividualCustomerCreateRequest.CustomerTypeEnum.INDIVIDUAL)
            .fullName(fullName)
            .birthDate(LocalDate.of(1990, 4, 21))
            .currencies(Set.of("USD"));
    Customer created = new CustomersApi(api).createCustomer(new CustomerCreateRequest(body), key());
    // Customer is a oneOf: the client picks the variant by customerType.
    return assertInstanceOf(IndividualCustomer.class, created.getActualInstance());
  }

  private static InternalAccount usdAccount(String customerId) throws ApiException {
    List<InternalAccount> accounts =
        new InternalAccountsApi(api).listCustomerInternalAccounts(customerId, "USD", InternalAccountType.INTERNAL_FIAT, null, null).getData();
    assertEquals(1, accounts.size());
    return accounts.get(0);
  }

  private static long balance(String accountId) throws ApiException {
    return new InternalAccountsApi(api).getInternalAccount(accountId).getBalance().getAmount();
  }

  @Test
  void payout() throws ApiException {
    IndividualCustomer customer = newCustomer("Jane Doe");
    InternalAccount usd = usdAccount(customer.getId());
    assertEquals(0L, usd.getBalance().getAmount());

    // A USD bank account: accountInfo is a oneOf, sent and read back as its USD_ACCOUNT variant.
    UsdAccountInfo info =
        new UsdAccountInfo()
            .accountType(UsdAccountInfo.AccountTypeEnum.USD_ACCOUNT)
            .accountNumber("000123456789")
            .routingNumber("021000021")
            .bankAccountType(UsdAccountInfo.BankAccountTypeEnum.CHECKING)
            .beneficiary(new Beneficiary(new IndividualBeneficiary().beneficiaryType(IndividualBeneficiary.BeneficiaryTypeEnum.INDIVIDUAL).fullName("Jane Doe")));
    ExternalAccount bank =
        new ExternalAccountsApi(api)
            .createCustomerExternalAccount(new ExternalAccountCreateRequest().customerId(customer.getId()).currency("USD").accountInfo(new ExternalAccountInfo(info)), key());
    UsdAccountInfo readBack = assertInstanceOf(UsdAccountInfo.class, bank.getAccountInfo().getActualInstance());
    assertEquals("021000021", readBack.getRoutingNumber());

    // A transfer-in sent twice with one Idempotency-Key: the same transaction, credited once.
    String idempotencyKey = key();
    TransferInRequest transfer =
        new TransferInRequest()
            .source(new ExternalAccountReference().accountId(bank.getId()))
            .destination(new InternalAccountReference().accountId(usd.getId()))
            .amount(50_000L);
    ApiResponse<Transaction> first = new SameCurrencyTransfersApi(api).createTransferInWithHttpInfo(transfer, idempotencyKey);
    ApiResponse<Transaction> again = new SameCurrencyTransfersApi(api).createTransferInWithHttpInfo(transfer, idempotencyKey);
    assertEquals(201, first.getStatusCode());
    assertEquals(201, again.getStatusCode());
    String transferId = assertInstanceOf(IncomingTransaction.class, first.getData().getActualInstance()).getId();
    assertEquals(transferId, assertInstanceOf(IncomingTransaction.class, again.getData().getActualInstance()).getId());
    assertEquals(List.of("true"), again.getHeaders().get("Idempotent-Replayed"));
    assertEquals(50_000L, balance(usd.getId()));

    // An UMA payment: receiver lookup, a quote with the sender's data, its execution, its transaction.
    UmaReceiverLookup lookup = new ReceiverLookupApi(api).lookupUmaReceiver(RECEIVER, null, customer.getId());
    QuoteCreateRequest request =
        new QuoteCreateRequest()
            .source(new QuoteSource(new AccountQuoteSource().sourceType(AccountQuoteSource.SourceTypeEnum.ACCOUNT).accountId(usd.getId())))
            .destination(new QuoteDestination(new UmaAddressQuoteDestination().destinationType(UmaAddressQuoteDestination.DestinationTypeEnum.UMA_ADDRESS).umaAddress(RECEIVER)))
            .lockedCurrencySide(QuoteLockSide.SENDING)
            .lockedCurrencyAmount(10_000L)
            .lookupId(lookup.getLookupId())
            .senderCustomerInfo(Map.of("FULL_NAME", "Jane Doe", "BIRTH_DATE", "1990-04-21", "NATIONALITY", "US"));
    Quote quote = new CrossCurrencyTransfersApi(api).createQuote(request, key());
    // The quote's destination is a oneOf too, read back as its UMA_ADDRESS variant.
    UmaAddressQuoteDestination destination = assertInstanceOf(UmaAddressQuoteDestination.class, quote.getDestination().getActualInstance());
    assertEquals(RECEIVER, destination.getUmaAddress());
    assertEquals("MXN", quote.getReceivingCurrency().getCode());
    Quote executed = new CrossCurrencyTransfersApi(api).executeQuote(quote.getId(), key(), null, null);
    assertNotNull(executed.getTransactionId());
    Transaction transaction = new TransactionsApi(api).getTransaction(executed.getTransactionId());
    OutgoingTransaction outgoing = assertInstanceOf(OutgoingTransaction.class, transaction.getActualInstance());
    assertEquals(quote.getId(), outgoing.getQuoteId());
    assertEquals(quote.getTotalSendingAmount(), outgoing.getSentAmount().getAmount());
    assertEquals(50_000L - quote.getTotalSendingAmount(), balance(usd.getId()));
  }

  @Test
  void listCustomersPageByPage() throws ApiException {
    Set<String> created = new HashSet<>();
    for (int i = 0; i < 5; i++) created.add(newCustomer("Page Walker " + i).getId());
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    CustomerListResponse page;
    do {
      page = new CustomersApi(api).listCustomers(null, null, null, null, null, null, null, null, null, null, null, null, 2, cursor);
      pages++;
      for (Customer customer : page.getData()) {
        Object variant = customer.getActualInstance();
        seen.add(variant instanceof IndividualCustomer individual ? individual.getId() : ((com.example.payments.model.BusinessCustomer) variant).getId());
      }
      cursor = page.getNextCursor();
      assertEquals(page.getHasMore(), cursor != null);
    } while (page.getHasMore());
    assertEquals(page.getTotalCount(), seen.size());
    assertEquals(seen.size(), new HashSet<>(seen).size());
    assertTrue(seen.containsAll(created));
    assertEquals((seen.size() + 1) / 2, pages);
  }

  @Test
  void badRequestIsDecoded() throws ApiException, IOException {
    IndividualCustomer customer = newCustomer("Jane Doe");
    // Valid as far as the client can tell; the server refuses to change a customer's type.
    CustomerUpdateRequest body = new CustomerUpdateRequest(new BusinessCustomerUpdateRequest().customerType(BusinessCustomerUpdateRequest.CustomerTypeEnum.BUSINESS));
    ApiException refused = assertThrows(ApiException.class, () -> new CustomersApi(api).updateCustomer(customer.getId(), body));
    assertEquals(400, refused.getCode());
    Error400 error = Error400.fromJson(refused.getResponseBody());
    assertEquals(400, error.getStatus().getValue());
    assertEquals(Error400.CodeEnum.INVALID_INPUT, error.getCode());
    assertNotNull(error.getDetails());
    List<FieldError> errors = error.getDetails().getErrors();
    assertNotNull(errors);
    assertEquals(List.of("/customerType"), errors.stream().map(FieldError::getField).toList());
  }

  @Test
  void notFoundIsDecoded() throws IOException {
    ApiException refused = assertThrows(ApiException.class, () -> new CustomersApi(api).getCustomer("Customer:019542f5-b3e7-1d02-0000-00000000dead"));
    assertEquals(404, refused.getCode());
    Error404 error = Error404.fromJson(refused.getResponseBody());
    assertEquals(404, error.getStatus().getValue());
    assertEquals(Error404.CodeEnum.CUSTOMER_NOT_FOUND, error.getCode());
    assertFalse(error.getMessage().isEmpty());
  }
}
