"""The payout flow through openapi-generator's Python client (`payments_client`), against the sandbox.

Only the generated client talks to the API: HTTP Basic from its Configuration, bodies from its
models, answers and errors decoded by it. The webhook is verified with Standard Webhooks' library.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import date

import pytest
from conftest import Sandbox, WebhookInbox, known
from payments_client import (
    AccountQuoteSource,
    ApiClient,
    Beneficiary,
    BusinessCustomerUpdateRequest,
    Configuration,
    CrossCurrencyTransfersApi,
    CustomerCreateRequest,
    CustomersApi,
    CustomerUpdateRequest,
    Error400,
    Error404,
    ExternalAccountCreateRequest,
    ExternalAccountInfo,
    ExternalAccountReference,
    ExternalAccountsApi,
    IncomingTransaction,
    IndividualBeneficiary,
    IndividualCustomer,
    IndividualCustomerCreateRequest,
    InternalAccount,
    InternalAccountReference,
    InternalAccountsApi,
    InternalAccountType,
    OutgoingTransaction,
    PlatformConfigUpdateRequest,
    PlatformConfigurationApi,
    QuoteCreateRequest,
    QuoteDestination,
    QuoteLockSide,
    QuoteSource,
    ReceiverLookupApi,
    SameCurrencyTransfersApi,
    SandboxApi,
    TransactionsApi,
    TransferInRequest,
    UmaAddressQuoteDestination,
    UsdAccountInfo,
)
from payments_client.exceptions import BadRequestException, NotFoundException
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

RECEIVER = "$success.mxn@sandbox.uma.money"


@pytest.fixture(scope="module")
def api(sandbox: Sandbox) -> Iterator[ApiClient]:
    config = Configuration(host=sandbox.base_url, username=sandbox.client_id, password=sandbox.client_secret)
    with ApiClient(config) as client:
        yield client


def create_customer(api: ApiClient, full_name: str) -> IndividualCustomer:
    body = IndividualCustomerCreateRequest(customerType="INDIVIDUAL", fullName=full_name, birthDate=date(1990, 4, 21), currencies=["USD"])
    created = CustomersApi(api).create_customer(CustomerCreateRequest(body), idempotency_key=str(uuid.uuid4()))
    # Customer is a oneOf: the client picks the variant by customerType.
    assert isinstance(created.actual_instance, IndividualCustomer)
    return created.actual_instance


def usd_account(api: ApiClient, customer_id: str) -> InternalAccount:
    page = InternalAccountsApi(api).list_customer_internal_accounts(customer_id=customer_id, currency="USD", type=InternalAccountType.INTERNAL_FIAT)
    assert len(page.data) == 1
    return page.data[0]


def test_payout(api: ApiClient) -> None:
    customer = create_customer(api, "Jane Doe")
    usd = usd_account(api, customer.id)
    assert usd.balance.amount == 0

    # A USD bank account: accountInfo is a oneOf, sent and read back as its USD_ACCOUNT variant.
    beneficiary = Beneficiary(IndividualBeneficiary(beneficiaryType="INDIVIDUAL", fullName="Jane Doe"))
    info = ExternalAccountInfo(UsdAccountInfo(accountType="USD_ACCOUNT", accountNumber="000123456789", routingNumber="021000021", bankAccountType="CHECKING", beneficiary=beneficiary))
    bank = ExternalAccountsApi(api).create_customer_external_account(
        ExternalAccountCreateRequest(customerId=customer.id, currency="USD", accountInfo=info), idempotency_key=str(uuid.uuid4())
    )
    assert isinstance(bank.account_info.actual_instance, UsdAccountInfo)
    assert bank.account_info.actual_instance.routing_number == "021000021"

    # A transfer-in sent twice with one Idempotency-Key: the same transaction, credited once.
    key = str(uuid.uuid4())
    transfer = TransferInRequest(source=ExternalAccountReference(accountId=bank.id), destination=InternalAccountReference(accountId=usd.id), amount=50_000)
    first = SameCurrencyTransfersApi(api).create_transfer_in_with_http_info(transfer, idempotency_key=key)
    again = SameCurrencyTransfersApi(api).create_transfer_in_with_http_info(transfer, idempotency_key=key)
    assert first.status_code == again.status_code == 201
    assert isinstance(first.data.actual_instance, IncomingTransaction)
    assert isinstance(again.data.actual_instance, IncomingTransaction)
    assert again.data.actual_instance.id == first.data.actual_instance.id
    assert (again.headers or {}).get("Idempotent-Replayed") == "true"
    assert InternalAccountsApi(api).get_internal_account(usd.id).balance.amount == 50_000

    # An UMA payment: receiver lookup, a quote with the sender's data, its execution, its transaction.
    lookup = ReceiverLookupApi(api).lookup_uma_receiver(RECEIVER, customer_id=customer.id)
    quote = CrossCurrencyTransfersApi(api).create_quote(
        QuoteCreateRequest(
            source=QuoteSource(AccountQuoteSource(sourceType="ACCOUNT", accountId=usd.id)),
            destination=QuoteDestination(UmaAddressQuoteDestination(destinationType="UMA_ADDRESS", umaAddress=RECEIVER)),
            lockedCurrencySide=QuoteLockSide.SENDING,
            lockedCurrencyAmount=10_000,
            lookupId=lookup.lookup_id,
            senderCustomerInfo={"FULL_NAME": "Jane Doe", "BIRTH_DATE": "1990-04-21", "NATIONALITY": "US"},
        ),
        idempotency_key=str(uuid.uuid4()),
    )
    # The quote's destination is a oneOf too, read back as its UMA_ADDRESS variant.
    assert isinstance(quote.destination.actual_instance, UmaAddressQuoteDestination)
    assert quote.destination.actual_instance.uma_address == RECEIVER
    assert quote.receiving_currency.code == "MXN"
    executed = CrossCurrencyTransfersApi(api).execute_quote(quote.id, idempotency_key=str(uuid.uuid4()))
    assert executed.transaction_id is not None
    transaction = TransactionsApi(api).get_transaction(executed.transaction_id)
    assert isinstance(transaction.actual_instance, OutgoingTransaction)
    assert transaction.actual_instance.quote_id == quote.id
    sent = transaction.actual_instance.sent_amount
    assert sent is not None and sent.amount == quote.total_sending_amount
    assert InternalAccountsApi(api).get_internal_account(usd.id).balance.amount == 50_000 - quote.total_sending_amount


def test_list_customers_page_by_page(api: ApiClient) -> None:
    created = {create_customer(api, f"Page Walker {i}").id for i in range(5)}
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = CustomersApi(api).list_customers(limit=2, cursor=cursor)
        pages += 1
        for customer in page.data:
            assert customer.actual_instance is not None
            seen.append(customer.actual_instance.id)
        if not page.has_more:
            break
        assert page.next_cursor is not None
        cursor = page.next_cursor
    assert len(seen) == len(set(seen)) == page.total_count
    assert created <= set(seen)
    assert pages == -(-len(seen) // 2)


def test_400_is_decoded(api: ApiClient) -> None:
    customer = create_customer(api, "Jane Doe")
    # Valid as far as the client can tell; the server refuses to change a customer's type.
    with pytest.raises(BadRequestException) as refused:
        CustomersApi(api).update_customer(customer.id, CustomerUpdateRequest(BusinessCustomerUpdateRequest(customerType="BUSINESS")))
    error = refused.value.data
    assert isinstance(error, Error400)
    assert (error.status, error.code) == (400, known("INVALID_INPUT"))
    assert error.details is not None and error.details.errors is not None
    # FieldError.field is `var_field` here: the generator renames fields that shadow pydantic's names.
    assert [e.var_field for e in error.details.errors] == ["/customerType"]


def test_404_is_decoded(api: ApiClient) -> None:
    with pytest.raises(NotFoundException) as refused:
        CustomersApi(api).get_customer("Customer:019542f5-b3e7-1d02-0000-00000000dead")
    error = refused.value.data
    assert isinstance(error, Error404)
    assert (error.status, error.code) == (404, known("CUSTOMER_NOT_FOUND"))


def test_webhook_is_verified(api: ApiClient, webhook_inbox: WebhookInbox) -> None:
    # Setting the endpoint returns the signing secret (once) and sends a TEST event; so does the sandbox.
    config = PlatformConfigurationApi(api).update_platform_config(PlatformConfigUpdateRequest(webhookEndpoint=webhook_inbox.url))
    assert config.webhook_signing_secret is not None
    result = SandboxApi(api).send_sandbox_test_webhook()
    assert result.response_status == 204
    webhook = Webhook(config.webhook_signing_secret)
    for _ in range(2):
        delivery = webhook_inbox.next()
        event = webhook.verify(delivery.body, delivery.headers)
        assert event["type"] == "TEST"
        assert event["id"] == delivery.headers["webhook-id"]
    # A body changed on the way does not verify.
    tampered = json.dumps({**json.loads(delivery.body), "type": "INCOMING_PAYMENT_COMPLETED"}).encode()
    with pytest.raises(WebhookVerificationError):
        webhook.verify(tampered, delivery.headers)
