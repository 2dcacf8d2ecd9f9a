"""The payout flow through openapi-python-client's client (`payments_service_api_client`), against the sandbox.

Only the generated client talks to the API: HTTP Basic through its AuthenticatedClient (the token
is `base64(clientId:clientSecret)` with the prefix `Basic`), bodies from its models, answers
decoded by it: every call returns the success model or the `Error<status>` model of the status.
The webhook is verified with Standard Webhooks' library.
"""

from __future__ import annotations

import base64
import datetime
import json
import uuid
from collections.abc import Iterator
from typing import TypeVar

import pytest
from conftest import Sandbox, WebhookInbox, known
from payments_service_api_client import AuthenticatedClient
from payments_service_api_client.api.cross_currency_transfers import create_quote, execute_quote
from payments_service_api_client.api.customers import create_customer, get_customer, list_customers, update_customer
from payments_service_api_client.api.external_accounts import create_customer_external_account
from payments_service_api_client.api.internal_accounts import get_internal_account, list_customer_internal_accounts
from payments_service_api_client.api.platform_configuration import update_platform_config
from payments_service_api_client.api.receiver_lookup import lookup_uma_receiver
from payments_service_api_client.api.same_currency_transfers import create_transfer_in
from payments_service_api_client.api.sandbox import send_sandbox_test_webhook
from payments_service_api_client.api.transactions import get_transaction
from payments_service_api_client.models import (
    AccountQuoteSource,
    BusinessCustomerUpdateRequest,
    BusinessCustomerUpdateRequestCustomerType,
    CustomerListResponse,
    Error400,
    Error404,
    Error400Details,
    ExternalAccount,
    ExternalAccountCreateRequest,
    ExternalAccountReference,
    IncomingTransaction,
    IndividualBeneficiary,
    IndividualCustomer,
    IndividualCustomerCreateRequest,
    IndividualCustomerCreateRequestCustomerType,
    InternalAccount,
    InternalAccountListResponse,
    InternalAccountReference,
    InternalAccountType,
    OutgoingTransaction,
    PayerDataValues,
    PlatformConfig,
    PlatformConfigUpdateRequest,
    Quote,
    QuoteCreateRequest,
    QuoteLockSide,
    SandboxWebhookTestResult,
    TransferInRequest,
    UmaAddressQuoteDestination,
    UmaReceiverLookup,
    UsdAccountInfo,
    UsdAccountInfoBankAccountType,
)
from payments_service_api_client.types import UNSET
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

RECEIVER = "$success.mxn@sandbox.uma.money"
T = TypeVar("T")


def expect(kind: type[T], answer: object) -> T:
    """The answer as the model the call should have returned (it returns an Error<status> model otherwise)."""
    assert isinstance(answer, kind), f"expected {kind.__name__}, got {answer!r}"
    return answer


@pytest.fixture(scope="module")
def api(sandbox: Sandbox) -> Iterator[AuthenticatedClient]:
    basic = base64.b64encode(f"{sandbox.client_id}:{sandbox.client_secret}".encode()).decode()
    with AuthenticatedClient(base_url=sandbox.base_url, token=basic, prefix="Basic") as client:
        yield client


def new_customer(api: AuthenticatedClient, full_name: str) -> IndividualCustomer:
    body = IndividualCustomerCreateRequest(
        customer_type=IndividualCustomerCreateRequestCustomerType.INDIVIDUAL, full_name=full_name, birth_date=datetime.date(1990, 4, 21), currencies=["USD"]
    )
    # Customer is a oneOf: the client returns the variant's model.
    return expect(IndividualCustomer, create_customer.sync(client=api, body=body, idempotency_key=str(uuid.uuid4())))


def usd_account(api: AuthenticatedClient, customer_id: str) -> InternalAccount:
    page = expect(InternalAccountListResponse, list_customer_internal_accounts.sync(client=api, customer_id=customer_id, currency="USD", type_=InternalAccountType.INTERNAL_FIAT))
    assert len(page.data) == 1
    return page.data[0]


def balance(api: AuthenticatedClient, account_id: str) -> int:
    return expect(InternalAccount, get_internal_account.sync(account_id, client=api)).balance.amount


def test_payout(api: AuthenticatedClient) -> None:
    customer = new_customer(api, "Jane Doe")
    usd = usd_account(api, customer.id)
    assert usd.balance.amount == 0

    # A USD bank account: accountInfo is a oneOf, sent and read back as its USD_ACCOUNT variant.
    info = UsdAccountInfo(
        account_type="USD_ACCOUNT",
        account_number="000123456789",
        routing_number="021000021",
        bank_account_type=UsdAccountInfoBankAccountType.CHECKING,
        beneficiary=IndividualBeneficiary(beneficiary_type="INDIVIDUAL", full_name="Jane Doe"),
    )
    bank = expect(
        ExternalAccount,
        create_customer_external_account.sync(
            client=api, body=ExternalAccountCreateRequest(customer_id=customer.id, currency="USD", account_info=info), idempotency_key=str(uuid.uuid4())
        ),
    )
    assert isinstance(bank.account_info, UsdAccountInfo)
    assert bank.account_info.routing_number == "021000021"

    # A transfer-in sent twice with one Idempotency-Key: the same transaction, credited once.
    key = str(uuid.uuid4())
    transfer = TransferInRequest(source=ExternalAccountReference(account_id=bank.id), destination=InternalAccountReference(account_id=usd.id), amount=50_000)
    first = create_transfer_in.sync_detailed(client=api, body=transfer, idempotency_key=key)
    again = create_transfer_in.sync_detailed(client=api, body=transfer, idempotency_key=key)
    assert first.status_code == again.status_code == 201
    assert expect(IncomingTransaction, again.parsed).id == expect(IncomingTransaction, first.parsed).id
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert balance(api, usd.id) == 50_000

    # An UMA payment: receiver lookup, a quote with the sender's data, its execution, its transaction.
    lookup = expect(UmaReceiverLookup, lookup_uma_receiver.sync(RECEIVER, client=api, customer_id=customer.id))
    quote = expect(
        Quote,
        create_quote.sync(
            client=api,
            body=QuoteCreateRequest(
                source=AccountQuoteSource(source_type="ACCOUNT", account_id=usd.id),
                destination=UmaAddressQuoteDestination(destination_type="UMA_ADDRESS", uma_address=RECEIVER),
                locked_currency_side=QuoteLockSide.SENDING,
                locked_currency_amount=10_000,
                lookup_id=lookup.lookup_id,
                sender_customer_info=PayerDataValues.from_dict({"FULL_NAME": "Jane Doe", "BIRTH_DATE": "1990-04-21", "NATIONALITY": "US"}),
            ),
            idempotency_key=str(uuid.uuid4()),
        ),
    )
    # The quote's destination is a oneOf too, read back as its UMA_ADDRESS variant.
    assert isinstance(quote.destination, UmaAddressQuoteDestination)
    assert quote.destination.uma_address == RECEIVER
    assert quote.receiving_currency.code == "MXN"
    executed = expect(Quote, execute_quote.sync(quote.id, client=api, idempotency_key=str(uuid.uuid4())))
    assert isinstance(executed.transaction_id, str)
    transaction = expect(OutgoingTransaction, get_transaction.sync(executed.transaction_id, client=api))
    assert transaction.quote_id == quote.id
    assert transaction.sent_amount.amount == quote.total_sending_amount
    assert balance(api, usd.id) == 50_000 - quote.total_sending_amount


def test_list_customers_page_by_page(api: AuthenticatedClient) -> None:
    created = {new_customer(api, f"Page Walker {i}").id for i in range(5)}
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = expect(CustomerListResponse, list_customers.sync(client=api, limit=2, cursor=UNSET if cursor is None else cursor))
        pages += 1
        seen.extend(customer.id for customer in page.data)
        if not page.has_more:
            break
        assert isinstance(page.next_cursor, str)
        cursor = page.next_cursor
    assert len(seen) == len(set(seen)) == page.total_count
    assert created <= set(seen)
    assert pages == -(-len(seen) // 2)


def test_400_is_decoded(api: AuthenticatedClient) -> None:
    customer = new_customer(api, "Jane Doe")
    # Valid as far as the client can tell; the server refuses to change a customer's type.
    body = BusinessCustomerUpdateRequest(customer_type=BusinessCustomerUpdateRequestCustomerType.BUSINESS)
    error = expect(Error400, update_customer.sync(customer.id, client=api, body=body))
    assert (error.status, error.code) == (400, known("INVALID_INPUT"))
    details = expect(Error400Details, error.details)
    errors = details.errors
    assert isinstance(errors, list)
    assert [e.field for e in errors] == ["/customerType"]


def test_404_is_decoded(api: AuthenticatedClient) -> None:
    error = expect(Error404, get_customer.sync("Customer:019542f5-b3e7-1d02-0000-00000000dead", client=api))
    assert (error.status, error.code) == (404, known("CUSTOMER_NOT_FOUND"))


def test_webhook_is_verified(api: AuthenticatedClient, webhook_inbox: WebhookInbox) -> None:
    # Setting the endpoint returns the signing secret (once) and sends a TEST event; so does the sandbox.
    config = expect(PlatformConfig, update_platform_config.sync(client=api, body=PlatformConfigUpdateRequest(webhook_endpoint=webhook_inbox.url)))
    assert isinstance(config.webhook_signing_secret, str)
    result = expect(SandboxWebhookTestResult, send_sandbox_test_webhook.sync(client=api))
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
